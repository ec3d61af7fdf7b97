//! A fuzz harness: the files of puzzles/ mutated along the file format's grammar (keys
//! dropped, renamed or written twice; values of the wrong type or at the extremes; board
//! sizes, holes, starts, Betza strings, cover items, options, colours and multiplicities,
//! goals and strategies) together with bad command-line values, or (half the cases) with
//! values the keys accept, on small boards, so that the searches run too; each case runs
//! through the release binary under a short time limit. Every run must end in time, with status 0 to 3 and no
//! panic, and a refusal (status 2) must say where the fault is: a line of the file, a key the
//! file lacks, or the command-line argument; an answer asked for as JSON must be JSON.
//!
//! 256 cases by default (some 15 s); a long run:
//! `BOARDSOLVE_FUZZ_CASES=5000 cargo test --release --test integration fuzz`. The cases
//! follow from a fixed seed, `BOARDSOLVE_FUZZ_SEED=N` picks others;
//! `BOARDSOLVE_FUZZ_VERBOSE=1` prints each case's status and first line of error. A failing
//! case is kept in a file whose path, text and command line the failure shows.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// The time limit every run is given unless the case sets its own (always at most this).
const TIME_LIMIT_S: f64 = 1.0;
/// How far past its time limit a run may end: reading, compiling and printing come on top.
const MARGIN: Duration = Duration::from_secs(5);
/// A run still going after this long is killed and reported as a hang.
const GUARD: Duration = Duration::from_secs(10);

/// A mutation of a puzzle file. Keys are picked by index (modulo the keys the document has
/// then), lines and byte positions by per mille of the text, so that every edit applies to
/// every file and shrinks toward the first key or line.
#[derive(Clone, Debug)]
enum Edit {
    /// Remove a key (or a whole table).
    Drop(usize),
    /// Give a key another name: a misspelling, another kind's key, an odd word.
    Rename(usize, String),
    /// Replace a key's value (or a whole table) by another value.
    Replace(usize, String),
    /// Wrap a value in an array, or turn a table into an array of tables (`[[board]]`).
    Wrap(usize),
    /// Set a key the format knows (creating its tables) to a value for that key.
    Set(String, String),
    /// Append an element to an array (holes, items, options, colours), creating it.
    Push(String, String),
    /// Write one line twice (a duplicate key or table header), in per mille of the lines.
    Duplicate(usize),
    /// Cut the text, in per mille of its length.
    Truncate(usize),
    /// Insert a few characters, in per mille of the length.
    Insert(usize, String),
}

/// A case: a base file, the edits to it and the command-line arguments.
#[derive(Clone, Debug)]
struct Case {
    base: usize,
    edits: Vec<Edit>,
    args: Vec<Vec<String>>,
    quiet: bool,
}

/// Integers at and past every limit the format or the command line checks.
const EXTREME_INTS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "64",
    "65",
    "1024",
    "4096",
    "100000",
    "100001",
    "1073741823",
    "1073741824",
    "2147483647",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
];

/// Values of the wrong type for nearly every key.
const ODD_VALUES: &[&str] = &[
    "1e300",
    "-1e300",
    "nan",
    "inf",
    "-inf",
    "0.5",
    "-0.0",
    "\"8\"",
    "\"nan\"",
    "\"\"",
    "true",
    "[]",
    "[[]]",
    "[8]",
    "[\"a\", 1]",
    "{}",
    "{ size = 8 }",
    "1979-05-27T07:32:00Z",
    "07:32:00",
];

const KINDS: &[&str] = &[
    "independent",
    "domination",
    "tour",
    "lines",
    "cover",
    "",
    "Independent",
    "sudoku",
];

const GOALS: &[&str] = &[
    "first", "all", "count", "minimize", "maximize", "", "COUNT", "tour", "max",
];

const STRATEGIES: &[&str] = &[
    "auto",
    "brute",
    "backtrack",
    "flags",
    "bitmask",
    "dlx",
    "bnb",
    "bands",
    "blocks",
    "count",
    "warnsdorff",
    "divide",
    "rows",
    "",
    "magic",
];

/// Key names the format has, misspellings and odd words, for renames.
const KEY_NAMES: &[&str] = &[
    "size",
    "width",
    "height",
    "holes",
    "moves",
    "leaps",
    "rides",
    "symbol",
    "count",
    "independent",
    "closed",
    "start",
    "colors",
    "per_color",
    "max_per_line",
    "items",
    "secondary",
    "options",
    "multiplicity",
    "goal",
    "strategy",
    "unique",
    "limit",
    "time_limit",
    "threads",
    "board",
    "piece",
    "rules",
    "solve",
    "kind",
    "title",
    "sizee",
    "colours",
    "Size",
    "",
    "é",
    "a b",
];

/// Tuning knobs of `[solve.options]`, and names no strategy has.
const TUNING: &[&str] = &[
    "bnb.root_steps",
    "bnb.root_mu",
    "bnb.node_patience",
    "bnb.forbid_upto",
    "bnb.donate",
    "bands.rows",
    "bands.max_states",
    "bands.margin",
    "lagrange.pace_steps",
    "local.fade",
    "bnb.nope",
    "nope.steps",
];

fn pick(list: &'static [&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(list).prop_map(str::to_string).boxed()
}

/// A TOML string literal of `s`.
fn quoted(s: &str) -> String {
    toml_edit::Value::from(s).to_string().trim().to_string()
}

fn extreme_int() -> BoxedStrategy<String> {
    pick(EXTREME_INTS)
}

/// Any value: small integers, extremes, and every other type.
fn any_value() -> BoxedStrategy<String> {
    prop_oneof![
        2 => (0i64..20).prop_map(|n| n.to_string()),
        3 => extreme_int(),
        3 => pick(ODD_VALUES),
        1 => "[A-Za-z0-9:]{0,4}".prop_map(|s| quoted(&s)),
    ]
    .boxed()
}

/// A board side: mostly small, so that accepted boards are solved or stopped quickly, and now
/// and then at or past a limit.
fn side() -> BoxedStrategy<String> {
    prop_oneof![
        6 => (1i64..=10).prop_map(|n| n.to_string()),
        2 => extreme_int(),
        1 => pick(ODD_VALUES),
    ]
    .boxed()
}

/// A small integer, or an extreme one.
fn number() -> BoxedStrategy<String> {
    prop_oneof![
        4 => (0i64..=12).prop_map(|n| n.to_string()),
        3 => extreme_int(),
        1 => pick(ODD_VALUES),
    ]
    .boxed()
}

/// A square as the file writes it: a name (good, off the board or malformed) or [row, col].
fn square() -> BoxedStrategy<String> {
    let coordinate = || {
        prop_oneof![
            3 => (0i64..10).prop_map(|n| n.to_string()),
            1 => extreme_int(),
        ]
    };
    prop_oneof![
        3 => "[a-j][1-9]".prop_map(|s| quoted(&s)),
        1 => pick(&[
            "\"z26\"", "\"aa1\"", "\"a0\"", "\"a\"", "\"1\"", "\"\"", "\"A1\"", "\"a-1\"",
            "\"a99999999999999999999\"", "\"zzzzzzzzzzzz1\"", "\"é1\"", "\"a1 \"",
        ]),
        3 => (coordinate(), coordinate()).prop_map(|(r, c)| format!("[{r}, {c}]")),
        1 => pick(&["[]", "[1]", "[1, 2, 3]", "[\"a\", 1]", "[1.5, 2]", "{ r = 1 }", "7"]),
    ]
    .boxed()
}

fn squares() -> BoxedStrategy<String> {
    prop::collection::vec(square(), 0..4)
        .prop_map(|v| format!("[{}]", v.join(", ")))
        .boxed()
}

/// A Betza string: atoms, shorthands, modifiers, counts and letters it does not know.
fn betza() -> BoxedStrategy<String> {
    "[WFDNAHCZGKRBQfbrlvsmcnjo0-9X!é ]{0,6}"
        .prop_map(|s| quoted(&s))
        .boxed()
}

/// Leap or ride vectors, small or extreme.
fn vectors() -> BoxedStrategy<String> {
    let coordinate = || {
        prop_oneof![
            4 => (-3i64..=3).prop_map(|n| n.to_string()),
            1 => extreme_int(),
        ]
    };
    prop_oneof![
        4 => prop::collection::vec((coordinate(), coordinate()), 0..3).prop_map(|v| {
            let pairs: Vec<String> = v.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
            format!("[{}]", pairs.join(", "))
        }),
        1 => pick(&["[[1]]", "[[1, 2, 3]]", "[1, 2]", "[[\"a\", 1]]"]),
    ]
    .boxed()
}

/// A cover item or option entry: names of the shipped cover files, a colour, or a bad name.
fn item_name() -> BoxedStrategy<String> {
    prop_oneof![
        3 => pick(&["r0c0", "r5c9", "F", "X", "p00", "r01", "b88", "a", "x"]),
        1 => pick(&["", "a b", "a:", ":red", "x:red", "F:red", "r0c0:blue", "x:y:z", "é"]),
    ]
    .boxed()
}

fn names() -> BoxedStrategy<String> {
    prop::collection::vec(item_name(), 0..4)
        .prop_map(|v| {
            let q: Vec<String> = v.iter().map(|s| quoted(s)).collect();
            format!("[{}]", q.join(", "))
        })
        .boxed()
}

/// A multiplicity range `[lo, hi]`, sometimes of the wrong shape.
fn range() -> BoxedStrategy<String> {
    let bound = || {
        prop_oneof![
            3 => (0i64..4).prop_map(|n| n.to_string()),
            2 => extreme_int(),
        ]
    };
    prop_oneof![
        4 => (bound(), bound()).prop_map(|(lo, hi)| format!("[{lo}, {hi}]")),
        1 => pick(&["[]", "[1]", "[1, 2, 3]", "[\"1\", 2]", "[1.5, 2]", "3", "{ lo = 1 }"]),
    ]
    .boxed()
}

/// A key of the format with a value for it (or, now and then, any value): mostly the keys
/// that `kind` reads, so that many cases pass the checks and reach a search, and now and then
/// another kind's.
fn keyed_value(kind: &str) -> BoxedStrategy<(String, String)> {
    fn key(k: &'static str, v: BoxedStrategy<String>) -> BoxedStrategy<(String, String)> {
        v.prop_map(move |v| (k.to_string(), v)).boxed()
    }
    let flag = || prop_oneof![3 => pick(&["true", "false"]), 1 => any_value()].boxed();
    let options = prop::collection::vec(names(), 0..3)
        .prop_map(|v| format!("[{}]", v.join(", ")))
        .boxed();
    let multiplicity = (item_name(), range())
        .prop_map(|(item, r)| (format!("rules.multiplicity.{}", quoted_key(&item)), r))
        .boxed();
    let rules: [(&str, BoxedStrategy<(String, String)>); 11] = [
        ("independent", key("rules.count", number())),
        ("domination", key("rules.independent", flag())),
        ("tour", key("rules.closed", flag())),
        ("tour", key("rules.start", square())),
        ("lines", key("rules.colors", names())),
        ("lines", key("rules.per_color", number())),
        ("lines", key("rules.max_per_line", number())),
        ("cover", key("rules.items", names())),
        ("cover", key("rules.secondary", names())),
        ("cover", key("rules.options", options)),
        ("cover", multiplicity),
    ];
    let board = if kind == "cover" { 1 } else { 4 };
    let piece = if kind == "cover" || kind == "lines" {
        1
    } else {
        4
    };
    let mut choices: Vec<(u32, BoxedStrategy<(String, String)>)> = vec![
        (board * 2, key("board.size", side())),
        (board, key("board.width", side())),
        (board, key("board.height", side())),
        (board, key("board.holes", squares())),
        (piece * 2, key("piece.moves", betza())),
        (piece, key("piece.leaps", vectors())),
        (piece, key("piece.rides", vectors())),
        (
            piece,
            key(
                "piece.symbol",
                pick(&[
                    "\"Q\"", "\"\"", "\"QQ\"", "\".\"", "\" \"", "\"é\"", "\"\\n\"",
                ]),
            ),
        ),
        (
            3,
            key("solve.goal", pick(GOALS).prop_map(|g| quoted(&g)).boxed()),
        ),
        (
            3,
            key(
                "solve.strategy",
                pick(STRATEGIES).prop_map(|s| quoted(&s)).boxed(),
            ),
        ),
        (1, key("solve.unique", flag())),
        (1, key("solve.limit", number())),
        (
            1,
            key(
                "solve.time_limit",
                pick(&["0", "-1", "nan", "inf", "1e9", "1e300", "0.5", "\"1\""]),
            ),
        ),
        (1, key("solve.threads", number())),
        (
            2,
            (pick(TUNING), any_value())
                .prop_map(|(k, v)| (format!("solve.options.{k}"), v))
                .boxed(),
        ),
        (1, key("kind", pick(KINDS).prop_map(|k| quoted(&k)).boxed())),
        (
            1,
            (pick(KEY_NAMES), any_value())
                .prop_map(|(k, v)| (quoted_key(&k), v))
                .boxed(),
        ),
    ];
    for (owner, strategy) in rules {
        choices.push((if owner == kind { 8 } else { 1 }, strategy));
    }
    prop::strategy::Union::new_weighted(choices).boxed()
}

/// A key as it stands in a dotted path: bare when it can be.
fn quoted_key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare { k.to_string() } else { quoted(k) }
}

/// An element to append to an array of the format.
fn pushed() -> BoxedStrategy<(String, String)> {
    let key = |k: &'static str, v: BoxedStrategy<String>| v.prop_map(move |v| (k.to_string(), v));
    prop_oneof![
        key("board.holes", square()),
        key("rules.items", item_name().prop_map(|s| quoted(&s)).boxed()),
        key(
            "rules.secondary",
            item_name().prop_map(|s| quoted(&s)).boxed()
        ),
        key("rules.options", names()),
        key(
            "rules.colors",
            pick(&["\"black\"", "\"white\"", "\"\"", "\"point\"", "3"])
        ),
    ]
    .boxed()
}

fn edit(kind: &str) -> BoxedStrategy<Edit> {
    prop_oneof![
        2 => any::<usize>().prop_map(Edit::Drop),
        1 => (any::<usize>(), pick(KEY_NAMES)).prop_map(|(k, n)| Edit::Rename(k, n)),
        2 => (any::<usize>(), any_value()).prop_map(|(k, v)| Edit::Replace(k, v)),
        1 => any::<usize>().prop_map(Edit::Wrap),
        8 => keyed_value(kind).prop_map(|(k, v)| Edit::Set(k, v)),
        2 => pushed().prop_map(|(k, v)| Edit::Push(k, v)),
        1 => (0usize..1000).prop_map(Edit::Duplicate),
        1 => (0usize..1000).prop_map(Edit::Truncate),
        1 => (0usize..1000, pick(&["\"", "[", "]", "=", "\n[board]\n", "#", "\u{0}", "é", "\\"]))
            .prop_map(|(at, s)| Edit::Insert(at, s)),
    ]
    .boxed()
}

/// One command-line option with a value that is bad, extreme or just unusual.
fn cli_arg(kind: &str) -> BoxedStrategy<Vec<String>> {
    let flag = |f: &'static str, v: BoxedStrategy<String>| {
        v.prop_map(move |v| vec![f.to_string(), v]).boxed()
    };
    let sides: &'static [&'static str] = &[
        "0",
        "-1",
        "1",
        "3",
        "8",
        "65",
        "100000",
        "100001",
        "4294967296",
        "18446744073709551616",
        "abc",
        "",
        "1e3",
        "8.0",
    ];
    prop_oneof![
        3 => flag("--size", prop_oneof![3 => (1usize..=10).prop_map(|n| n.to_string()), 1 => pick(sides)].boxed()),
        1 => flag("--width", pick(sides)),
        1 => flag("--height", pick(sides)),
        1 => flag(
            "--time-limit",
            pick(&["0", "-1", "nan", "NaN", "inf", "1e20", "1e9", "abc", "", "0.5", "1e-300", "-0"])
        ),
        1 => flag(
            "--node-limit",
            pick(&["0", "1", "-1", "100", "18446744073709551615", "18446744073709551616", "abc"])
        ),
        1 => flag("--threads", pick(&["0", "1", "2", "1024", "1025", "-1", "abc", "18446744073709551616"])),
        1 => flag(
            "--part",
            pick(&[
                "1/1", "0/1", "2/1", "1/0", "1/2", "2/2", "1/100000", "1/100001", "a/b", "1/2,1/2",
                "1/2,3/2", "1/2,,", "1/2,1/2,1/2", "18446744073709551616/1", "-1/2", "/", "",
            ])
        ),
        3 => flag("--set", keyed_value(kind).prop_map(|(k, v)| format!("{k}={v}")).boxed()),
        1 => flag(
            "--set",
            pick(&[
                "noequals", "=3", "a..b=1", "board=3", "board.size.x=1", "title.x=1", ".=1",
                "rules.count= ", "piece.moves=NX", "solve.options=3", "kind=cover",
            ])
        ),
        2 => flag("--goal", pick(GOALS)),
        2 => flag("--strategy", pick(STRATEGIES)),
        1 => flag("--limit", pick(&["0", "-1", "1", "18446744073709551615", "abc"])),
        1 => flag("--optimum", pick(&["0", "3", "14", "-1", "abc"])),
        1 => flag("--estimate", pick(&["0", "1", "10", "abc"])),
        1 => flag("--format", pick(&["text", "json", "svg", "dot", "knuth", "xml"])),
        1 => Just(vec!["--unique".to_string()]).boxed(),
    ]
    .boxed()
}

/// A value a key of `kind` accepts, or nearly: small boards, real pieces, goals and
/// strategies of the kind, so that the case reaches a search, on a board or with options the
/// shipped files do not try.
fn plausible_value(kind: &str) -> BoxedStrategy<(String, String)> {
    fn key(k: &'static str, v: BoxedStrategy<String>) -> BoxedStrategy<(String, String)> {
        v.prop_map(move |v| (k.to_string(), v)).boxed()
    }
    let small = |lo: i64, hi: i64| (lo..=hi).prop_map(|n| n.to_string()).boxed();
    let name = |list: &'static [&'static str]| pick(list).prop_map(|s| quoted(&s)).boxed();
    let goals: &'static [&'static str] = match kind {
        "independent" => &["first", "all", "count", "maximize"],
        "domination" => &["minimize", "count", "first"],
        _ => &["first", "all", "count"],
    };
    let names = |list: &'static [&'static str], most: usize| {
        prop::collection::vec(pick(list), 1..most)
            .prop_map(|v| {
                let q: Vec<String> = v.iter().map(|s| quoted(s)).collect();
                format!("[{}]", q.join(", "))
            })
            .boxed()
    };
    let square = || {
        prop_oneof![
            "[a-e][1-5]".prop_map(|s| quoted(&s)),
            (0i64..5, 0i64..5).prop_map(|(r, c)| format!("[{r}, {c}]")),
        ]
        .boxed()
    };
    let mut choices: Vec<BoxedStrategy<(String, String)>> = vec![
        key("solve.goal", name(goals)),
        key("solve.unique", pick(&["true", "false"])),
    ];
    if kind != "cover" {
        choices.extend([
            key("board.size", small(1, 8)),
            (1i64..=8, 1i64..=8)
                .prop_map(|(w, h)| {
                    (
                        "board".to_string(),
                        format!("{{ width = {w}, height = {h} }}"),
                    )
                })
                .boxed(),
            key(
                "board.holes",
                prop::collection::vec(square(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(", ")))
                    .boxed(),
            ),
        ]);
    }
    match kind {
        "independent" | "domination" => {
            let pieces = &[
                "K", "N", "Q", "R", "B", "W", "F", "NN", "W2", "C", "Z", "KN", "RN", "BN", "A", "D",
            ];
            choices.push(key("piece.moves", name(pieces)));
        }
        "tour" => {
            let leapers = &["N", "C", "Z", "W", "F", "K", "A", "D", "NW", "G", "H"];
            choices.push(key("piece.moves", name(leapers)));
        }
        _ => {}
    }
    match kind {
        "independent" => {
            let strategies = &["auto", "brute", "backtrack", "flags", "bitmask", "dlx"];
            choices.push(key("rules.count", small(1, 9)));
            choices.push(key("solve.strategy", name(strategies)));
        }
        "domination" => {
            let strategies = &["auto", "bnb", "bands", "dlx", "blocks"];
            choices.push(key("rules.independent", pick(&["true", "false"])));
            choices.push(key("solve.strategy", name(strategies)));
        }
        "tour" => {
            let strategies = &["auto", "backtrack", "count", "warnsdorff", "divide"];
            choices.push(key("rules.closed", pick(&["true", "false"])));
            choices.push(key("rules.start", square()));
            choices.push(key("solve.strategy", name(strategies)));
        }
        "lines" => {
            let strategies = &["auto", "rows", "dlx", "bitmask"];
            choices.push(key("rules.colors", names(&["black", "white", "red"], 4)));
            choices.push(key("rules.per_color", small(1, 8)));
            choices.push(key("rules.max_per_line", small(1, 3)));
            choices.push(key("solve.strategy", name(strategies)));
        }
        _ => {
            // The whole of [rules], so that the options name declared items.
            let items = &["a", "b", "c", "x", "y:red", "y:blue", "y"];
            let options = prop::collection::vec(names(items, 4), 1..6)
                .prop_map(|v| format!("[{}]", v.join(", ")));
            let range = (0i64..3, 1i64..4).prop_map(|(lo, span)| format!("[{lo}, {}]", lo + span));
            let ranges = (
                prop::sample::subsequence(vec!["a", "b", "c"], 0..=3),
                prop::collection::vec(range, 3),
            )
                .prop_map(|(items, ranges)| {
                    let r: Vec<String> = items
                        .iter()
                        .zip(&ranges)
                        .map(|(k, r)| format!("{k} = {r}"))
                        .collect();
                    r.join(", ")
                });
            let rules = (options, ranges).prop_map(|(options, ranges)| {
                format!(
                    "{{ items = [\"a\", \"b\", \"c\"], secondary = [\"x\", \"y\"], \
                     options = {options}, multiplicity = {{ {ranges} }} }}"
                )
            });
            choices.push(key("rules", rules.boxed()));
        }
    }
    prop::strategy::Union::new(choices).boxed()
}

/// Command-line options a run takes: sizes, threads, parts, limits, formats, and values of
/// the kind's keys.
fn plausible_arg(kind: &str) -> BoxedStrategy<Vec<String>> {
    let flag = |f: &'static str, v: BoxedStrategy<String>| {
        v.prop_map(move |v| vec![f.to_string(), v]).boxed()
    };
    let set = plausible_value(kind).prop_map(|(k, v)| format!("{k}={v}"));
    let mut choices = vec![
        flag("--threads", pick(&["1", "2"])),
        flag(
            "--part",
            pick(&["1/2", "2/2", "1/3", "3/3", "2/3,1/2", "1/1"]),
        ),
        flag("--format", pick(&["text", "json", "svg", "dot"])),
        flag("--node-limit", pick(&["1", "50", "5000"])),
        flag("--limit", pick(&["0", "1", "3"])),
        Just(vec!["--unique".to_string()]).boxed(),
        flag("--set", set.boxed()),
    ];
    if kind != "cover" {
        choices.push(flag(
            "--size",
            (1usize..=8).prop_map(|n| n.to_string()).boxed(),
        ));
    }
    prop::strategy::Union::new(choices).boxed()
}

/// A case on one of the base files, whose kinds are `kinds`: half of them wild (anything the
/// generators make, mostly refused), half plausible (values the keys accept, mostly solved
/// or stopped).
fn case(kinds: Vec<String>) -> BoxedStrategy<Case> {
    (0..kinds.len(), prop::bool::ANY)
        .prop_flat_map(move |(base, wild)| {
            let kind = &kinds[base];
            let (edits, args) = if wild {
                (
                    prop::collection::vec(edit(kind), 0..4).boxed(),
                    prop::collection::vec(cli_arg(kind), 0..3).boxed(),
                )
            } else {
                let set = plausible_value(kind).prop_map(|(k, v)| Edit::Set(k, v));
                (
                    prop::collection::vec(set, 1..4).boxed(),
                    prop::collection::vec(plausible_arg(kind), 0..3).boxed(),
                )
            };
            (Just(base), edits, args, prop::bool::weighted(0.8))
        })
        .prop_map(|(base, edits, args, quiet)| Case {
            base,
            edits,
            args,
            quiet,
        })
        .boxed()
}

/// The dotted paths of every key in the document, tables included, in document order.
fn keys(doc: &toml_edit::DocumentMut) -> Vec<Vec<String>> {
    fn walk(t: &dyn toml_edit::TableLike, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for (k, item) in t.iter() {
            path.push(k.to_string());
            out.push(path.clone());
            if let Some(inner) = item.as_table_like() {
                walk(inner, path, out);
            }
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(doc.as_table(), &mut Vec::new(), &mut out);
    out
}

/// The table-like item that holds the last key of `path`, creating tables on the way when
/// `create`; `None` where a value stands in the way.
fn parent<'a>(
    doc: &'a mut toml_edit::DocumentMut,
    path: &[String],
    create: bool,
) -> Option<&'a mut dyn toml_edit::TableLike> {
    let mut t: &mut dyn toml_edit::TableLike = doc.as_table_mut();
    for k in &path[..path.len() - 1] {
        if t.get(k).is_none() {
            if !create {
                return None;
            }
            t.insert(k, toml_edit::Item::Table(toml_edit::Table::new()));
        }
        t = t.get_mut(k)?.as_table_like_mut()?;
    }
    Some(t)
}

fn value(text: &str) -> toml_edit::Value {
    text.parse()
        .unwrap_or_else(|e| panic!("the harness made a bad TOML value {text:?}: {e}"))
}

/// A dotted path split into its keys, quoted keys kept whole.
fn split_path(path: &str) -> Vec<String> {
    let key = format!("{path} = 0");
    let doc: toml_edit::DocumentMut = key
        .parse()
        .unwrap_or_else(|e| panic!("the harness made a bad key path {path:?}: {e}"));
    keys(&doc).pop().expect("one key")
}

/// The text of a base file after the edits: the grammar's edits on the document, then the
/// text's (a line written twice, a cut, inserted characters) in their order.
fn mutate(base: &str, edits: &[Edit]) -> String {
    let mut doc: toml_edit::DocumentMut = base.parse().expect("the shipped puzzles parse");
    let nth = |doc: &toml_edit::DocumentMut, k: usize| {
        let all = keys(doc);
        (!all.is_empty()).then(|| all[k % all.len()].clone())
    };
    let mut text_edits = Vec::new();
    for e in edits {
        match e {
            Edit::Drop(k) => {
                if let Some(path) = nth(&doc, *k)
                    && let Some(t) = parent(&mut doc, &path, false)
                {
                    t.remove(path.last().unwrap());
                }
            }
            Edit::Rename(k, name) => {
                if let Some(path) = nth(&doc, *k)
                    && let Some(t) = parent(&mut doc, &path, false)
                    && let Some(item) = t.remove(path.last().unwrap())
                {
                    t.insert(name, item);
                }
            }
            Edit::Replace(k, v) => {
                if let Some(path) = nth(&doc, *k)
                    && let Some(t) = parent(&mut doc, &path, false)
                {
                    t.insert(path.last().unwrap(), toml_edit::Item::Value(value(v)));
                }
            }
            Edit::Wrap(k) => {
                if let Some(path) = nth(&doc, *k)
                    && let Some(t) = parent(&mut doc, &path, false)
                    && let Some(item) = t.remove(path.last().unwrap())
                {
                    let wrapped = match item {
                        toml_edit::Item::Table(table) => {
                            let mut a = toml_edit::ArrayOfTables::new();
                            a.push(table);
                            toml_edit::Item::ArrayOfTables(a)
                        }
                        toml_edit::Item::Value(v) => {
                            let mut a = toml_edit::Array::new();
                            a.push(v);
                            toml_edit::Item::Value(a.into())
                        }
                        other => other,
                    };
                    t.insert(path.last().unwrap(), wrapped);
                }
            }
            Edit::Set(path, v) => {
                let path = split_path(path);
                if let Some(t) = parent(&mut doc, &path, true) {
                    t.insert(path.last().unwrap(), toml_edit::Item::Value(value(v)));
                }
            }
            Edit::Push(path, v) => {
                let path = split_path(path);
                if let Some(t) = parent(&mut doc, &path, true) {
                    let last = path.last().unwrap();
                    match t.get_mut(last).and_then(|i| i.as_array_mut()) {
                        Some(a) => a.push(value(v)),
                        None => {
                            let mut a = toml_edit::Array::new();
                            a.push(value(v));
                            t.insert(last, toml_edit::Item::Value(a.into()));
                        }
                    }
                }
            }
            Edit::Duplicate(_) | Edit::Truncate(_) | Edit::Insert(..) => text_edits.push(e),
        }
    }
    let mut text = doc.to_string();
    let at = |text: &str, per_mille: usize| {
        let mut i = text.len() * per_mille / 1000;
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    for e in text_edits {
        match e {
            Edit::Duplicate(p) => {
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let i = lines.len() * p / 1000;
                    let mut out: Vec<&str> = lines[..=i].to_vec();
                    out.extend(&lines[i..]);
                    text = out.join("\n") + "\n";
                }
            }
            Edit::Truncate(p) => text.truncate(at(&text, *p)),
            Edit::Insert(p, s) => {
                let i = at(&text, *p);
                text.insert_str(i, s);
            }
            _ => unreachable!(),
        }
    }
    text
}

/// What a run of the binary gave.
struct Ran {
    status: Option<std::process::ExitStatus>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// Run the release binary with `args`, killing it at [`GUARD`].
fn run(args: &[String]) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the solve binary starts");
    let start = Instant::now();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            String::from_utf8_lossy(&v).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting on the solve binary") {
            break Some(s);
        }
        if start.elapsed() > GUARD {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    Ran {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        elapsed,
    }
}

/// Whether a refusal says where the fault is: a line of the file (`FILE:LINE:`, a line the
/// file has), a command-line argument the case gave (`args[0]` is the file), a key the file
/// does not hold (`FILE: key `K`: missing ...`), which has no line to name, or the puzzle as
/// a whole when no strategy takes it (each strategy's reason then follows).
fn located(stderr: &str, file: &str, text: &str, args: &[String]) -> bool {
    let lines = text.lines().count() + 1;
    let at_line = stderr.match_indices(&format!("{file}:")).any(|(i, m)| {
        let digits: String = stderr[i + m.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse::<usize>()
            .is_ok_and(|n| (1..=lines).contains(&n))
    });
    // An option by its flag, or (as clap names what it cannot place) a value in quotes.
    let names_an_option = args[1..].iter().any(|a| {
        (a.starts_with("--") && stderr.contains(a.as_str())) || stderr.contains(&format!("'{a}'"))
    });
    let in_file = |key: &str| {
        let doc: Result<toml_edit::ImDocument<String>, _> = text.to_string().parse();
        doc.is_ok_and(|doc| {
            let mut item = doc.as_item();
            for k in key.split('.') {
                match item.get(k.trim_matches('"')) {
                    Some(i) => item = i,
                    None => return false,
                }
            }
            true
        })
    };
    let missing_key = stderr
        .split(&format!("{file}: key `"))
        .skip(1)
        .filter_map(|rest| rest.split_once('`'))
        .any(|(key, says)| {
            let says = says.lines().next().unwrap_or("");
            !in_file(key) && (says.contains("missing") || says.contains("needs"))
        });
    let no_strategy = stderr.contains(&format!("{file}: no strategy applies"));
    at_line || names_an_option || missing_key || no_strategy
}

static RUNS: AtomicUsize = AtomicUsize::new(0);
/// Runs by exit status 0 to 3, for the summary a long run prints.
static BY_STATUS: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardsolve-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A word for a POSIX shell.
fn shell(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=,+-@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Run one case; `Err` says what went wrong, with the file and the command to run it again.
fn check(bases: &[(String, String)], case: &Case) -> Result<(), String> {
    let (base_name, base_text) = &bases[case.base];
    let text = mutate(base_text, &case.edits);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    let path: PathBuf = scratch().join(format!("case-{n}.toml"));
    std::fs::write(&path, &text).unwrap();
    let file = path.to_string_lossy().into_owned();
    let mut args = vec![file.clone()];
    let own_limit = case.args.iter().any(|a| a[0] == "--time-limit");
    if !own_limit {
        args.extend(["--time-limit".to_string(), TIME_LIMIT_S.to_string()]);
    }
    if case.quiet {
        args.push("--quiet".into());
    }
    args.extend(case.args.iter().flatten().cloned());
    let ran = run(&args);

    let mut faults = Vec::new();
    if std::env::var_os("BOARDSOLVE_FUZZ_VERBOSE").is_some() {
        eprintln!(
            "fuzz case {n}: status {:?} after {:.2} s: {}",
            ran.status.and_then(|s| s.code()),
            ran.elapsed.as_secs_f64(),
            ran.stderr.lines().next().unwrap_or("")
        );
    }
    match ran.status {
        None => faults.push(format!("hang: still running after {GUARD:?}, killed")),
        Some(s) => match s.code() {
            None => faults.push(format!("ended by a signal: {s}")),
            Some(101) => faults.push("exit status 101 (a panic)".into()),
            Some(c) if !(0..=3).contains(&c) => faults.push(format!("exit status {c}")),
            Some(2) if !located(&ran.stderr, &file, &text, &args) => faults.push(
                "exit status 2 with a message that names no line, missing key or argument".into(),
            ),
            Some(_) => {}
        },
    }
    if ran.stderr.contains("panicked at") || ran.stderr.contains("RUST_BACKTRACE") {
        faults.push("a panic on standard error".into());
    }
    // An answer asked for as JSON is JSON, whatever the outcome.
    let json = args
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json");
    let answered = ran.status.and_then(|s| s.code()).is_some_and(|c| c != 2);
    if json && answered && serde_json::from_str::<serde_json::Value>(&ran.stdout).is_err() {
        faults.push("--format json wrote no JSON".into());
    }
    let allowed = Duration::from_secs_f64(TIME_LIMIT_S) + MARGIN;
    if ran.status.is_some() && ran.elapsed > allowed {
        faults.push(format!(
            "took {:.1} s, more than the time limit and {MARGIN:?}",
            ran.elapsed.as_secs_f64()
        ));
    }
    if faults.is_empty() {
        if let Some(c) = ran.status.and_then(|s| s.code()) {
            BY_STATUS[c as usize].fetch_add(1, Ordering::Relaxed);
        }
        let _ = std::fs::remove_file(&path);
        return Ok(());
    }
    let command: Vec<String> = std::iter::once("solve".to_string())
        .chain(args.iter().map(|a| shell(a)))
        .collect();
    let mut stdout = ran.stdout;
    if stdout.len() > 2000 {
        let mut cut = 2000;
        while !stdout.is_char_boundary(cut) {
            cut -= 1;
        }
        stdout.truncate(cut);
        stdout.push_str("\n...");
    }
    Err(format!(
        "{}\nfrom {base_name}, kept in {}:\n----\n{text}----\n$ {}\nstatus {:?} after {:.2} s\n\
         stderr:\n{}\nstdout:\n{stdout}",
        faults.join("; "),
        path.display(),
        command.join(" "),
        ran.status.and_then(|s| s.code()),
        ran.elapsed.as_secs_f64(),
        ran.stderr,
    ))
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: accepted: a whole number")),
        Err(_) => default,
    }
}

fn bases() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = format!("puzzles/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

#[test]
fn fuzz_mutated_puzzles_end_cleanly() {
    let cases = env_number("BOARDSOLVE_FUZZ_CASES", 256) as u32;
    let seed = env_number("BOARDSOLVE_FUZZ_SEED", 0);
    let bases = bases();
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        // Each step of shrinking runs the binary; a hang costs the guard's seconds.
        max_shrink_iters: 64,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let kinds: Vec<String> = bases
        .iter()
        .map(|(_, text)| {
            let doc: toml::Table = text.parse().unwrap();
            doc["kind"].as_str().unwrap().to_string()
        })
        .collect();
    let result = runner.run(&case(kinds), |c| {
        check(&bases, &c).map_err(TestCaseError::fail)
    });
    let _ = std::fs::remove_dir(scratch());
    let tally: Vec<usize> = BY_STATUS
        .iter()
        .map(|n| n.load(Ordering::Relaxed))
        .collect();
    eprintln!(
        "fuzz: {} runs: {} solved, {} no solution, {} refused, {} stopped by a limit",
        RUNS.load(Ordering::Relaxed),
        tally[0],
        tally[1],
        tally[2],
        tally[3]
    );
    if let Err(e) = result {
        panic!("{e}\n(BOARDSOLVE_FUZZ_SEED={seed}, {cases} cases)");
    }
}

/// The mutations themselves: every edit applies to every shipped file, and a file left alone
/// comes back as it was read.
#[test]
fn fuzz_edits_apply_to_every_puzzle() {
    let bases = bases();
    assert!(bases.len() >= 10);
    for (name, text) in &bases {
        let same = mutate(text, &[]);
        assert_eq!(
            same.parse::<toml::Table>().unwrap(),
            text.parse::<toml::Table>().unwrap(),
            "{name}"
        );
        let edits = [
            Edit::Set("board.size".into(), "0".into()),
            Edit::Push("rules.options".into(), "[\"a\", \"x:red\"]".into()),
            Edit::Set(
                "rules.multiplicity.\"a b\"".into(),
                "[1, 4294967296]".into(),
            ),
            Edit::Wrap(1),
            Edit::Rename(0, "kinds".into()),
            Edit::Drop(3),
            Edit::Replace(2, "nan".into()),
            Edit::Duplicate(500),
            Edit::Truncate(900),
            Edit::Insert(10, "\"".into()),
        ];
        let changed = mutate(text, &edits);
        assert_ne!(&changed, text, "{name}");
    }
}
