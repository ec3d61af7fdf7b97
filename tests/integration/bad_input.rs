//! Bad input: each a clear error naming the file, line and key, and exit status 2; never a
//! panic or a silent hang.

use assert_cmd::Command;

fn run_text(text: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("solve")
        .unwrap()
        .arg("-")
        .args(extra)
        .write_stdin(text.to_string())
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code().unwrap_or(-1), err)
}

fn expect_error(text: &str, extra: &[&str], needles: &[&str]) {
    let (code, err) = run_text(text, extra);
    assert_eq!(code, 2, "exit status for\n{text}\n{err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in\n{err}");
    }
}

const HEAD: &str = "kind = \"independent\"\n[board]\n";

#[test]
fn malformed_toml() {
    expect_error("kind = \"independent\n", &[], &["<stdin>:1:", "error"]);
    expect_error("kind = independent\n", &[], &["<stdin>:1:"]);
}

#[test]
fn unknown_keys() {
    expect_error(
        &format!("{HEAD}size = 8\ncolour = 3\n"),
        &[],
        &["<stdin>:4:", "board.colour", "unknown field", "size"],
    );
    expect_error(
        "kind = \"independent\"\nboard_size = 8\n",
        &[],
        &["<stdin>:2:", "board_size"],
    );
    expect_error(
        &format!("{HEAD}size = 4\n[piece]\nmoves = \"N\"\n[rules]\nclosed = true\n"),
        &[],
        &["<stdin>:7:", "rules.closed", "accepted in [rules]: count"],
    );
}

#[test]
fn wrong_types() {
    expect_error(
        &format!("{HEAD}size = \"eight\"\n"),
        &[],
        &["<stdin>:3:", "board.size", "invalid type"],
    );
    expect_error(
        &format!("{HEAD}size = 4\n[piece]\nmoves = 3\n"),
        &[],
        &["<stdin>:5:", "piece.moves"],
    );
    expect_error(
        &format!("{HEAD}size = 4\n[piece]\nmoves = \"Q\"\n[solve]\ngoal = \"minimize\"\n"),
        &[],
        &[
            "<stdin>:7:",
            "solve.goal",
            "accepted: first, all, count, maximize",
        ],
    );
}

#[test]
fn zero_negative_and_huge_sizes() {
    expect_error(
        &format!("{HEAD}size = 0\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &["<stdin>:3:", "board.size", "accepted: 1 to"],
    );
    expect_error(
        &format!("{HEAD}size = -5\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &["<stdin>:3:", "board.size"],
    );
    expect_error(
        &format!("{HEAD}size = 99999999999999999999999\n"),
        &[],
        &["<stdin>:3:", "board.size"],
    );
    expect_error(
        &format!("{HEAD}size = 20000000\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &["<stdin>:3:", "board.size", "accepted: 1 to 10000000"],
    );
    // A board the searches cannot hold: each says so (the construction builds goal first).
    expect_error(
        &format!("{HEAD}size = 5000\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &[
            "needs the whole board's attack sets: 25,000,000 squares, more than 4,096",
            "construct: goal count",
        ],
    );
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n"),
        &["--size", "0"],
        &["--size", "accepted: 1 to"],
    );
}

#[test]
fn unknown_betza_letters() {
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"NX\"\n"),
        &[],
        &[
            "<stdin>:5:11",
            "piece.moves",
            "unknown Betza letter 'X'",
            "accepted",
        ],
    );
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"fN\"\n"),
        &[],
        &["piece.moves", "modifier"],
    );
}

#[test]
fn count_larger_than_the_board() {
    expect_error(
        &format!("{HEAD}size = 3\n[piece]\nmoves = \"N\"\n[rules]\ncount = 10\n"),
        &[],
        &["<stdin>:7:", "rules.count", "accepted: 1 to 9"],
    );
    // Goals first and all need a count; count without one counts the largest placements.
    for goal in ["first", "all"] {
        expect_error(
            &format!("{HEAD}size = 3\n[piece]\nmoves = \"N\"\n"),
            &["--goal", goal],
            &[
                "rules.count",
                "missing",
                "goal \"count\" counts the placements",
            ],
        );
    }
}

#[test]
fn holes_off_the_board() {
    expect_error(
        &format!("{HEAD}size = 4\nholes = [\"e1\"]\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &["<stdin>:4:", "board.holes", "off the 4x4 board"],
    );
    expect_error(
        &format!("{HEAD}size = 4\nholes = [[4, 0]]\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &["<stdin>:4:", "[4, 0] is off"],
    );
    expect_error(
        &format!("{HEAD}size = 4\nholes = [\"4a\"]\n[piece]\nmoves = \"Q\"\n"),
        &[],
        &["not a square name"],
    );
}

#[test]
fn brute_force_beyond_its_reach_is_refused_up_front() {
    expect_error(
        &format!("{HEAD}size = 16\n[piece]\nmoves = \"Q\"\n"),
        &["--strategy", "brute"],
        &["brute", "beyond brute force's reach"],
    );
}

#[test]
fn unknown_strategy_goal_and_usage() {
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n"),
        &["--strategy", "magic"],
        &["unknown strategy \"magic\"", "bitmask"],
    );
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"N\"\n[rules]\ncount = 4\n"),
        &["--strategy", "flags"],
        &["does not apply", "line piece"],
    );
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n"),
        &["--goal", "tour"],
        &["--goal", "accepted"],
    );
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n"),
        &["--frobnicate"],
        &["--frobnicate"],
    );
    let out = Command::cargo_bin("solve")
        .unwrap()
        .arg("no/such/file.toml")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/file.toml"));
}

#[test]
fn errors_found_by_a_kind_point_at_the_line_of_the_key() {
    // A rider is valid Betza but no tour piece: the tour compiler rejects it after parsing,
    // and the error must still name the line and column of `moves`.
    expect_error(
        "kind = \"tour\"\n[board]\nsize = 5\n[piece]\nmoves = \"NN\"\n",
        &[],
        &["<stdin>:5:9:", "piece.moves", "leaper"],
    );
    // A key missing altogether has no line to point at, and the error says what is needed.
    expect_error(
        "kind = \"domination\"\n[board]\nsize = 5\n",
        &[],
        &["<stdin>:", "piece", "moves"],
    );
}

/// `leaps = [[-9223372036854775808, 1]]` read as a wazir and `rides = [[1, i64::MIN]]` as a
/// rook: i64::MIN has no absolute value, so the range is checked as a range.
#[test]
fn vectors_of_i64_min_are_refused() {
    for key in [
        "leaps = [[-9223372036854775808, 1]]",
        "rides = [[1, -9223372036854775808]]",
    ] {
        let text = format!(
            "kind = \"tour\"\n[board]\nsize = 5\n[piece]\n{key}\n[rules]\nclosed = false\n"
        );
        expect_error(&text, &[], &["vectors are limited to -64..64", "piece."]);
    }
}

/// A strategy that does not exist or does not apply is refused with where it was named: the
/// file's `solve.strategy` by line and key, `--strategy` by the flag, `auto` by the file.
#[test]
fn strategy_errors_say_where_the_strategy_was_named() {
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n[solve]\nstrategy = \"bogus\"\n");
    expect_error(
        &text,
        &[],
        &["<stdin>:7:", "solve.strategy", "unknown strategy \"bogus\""],
    );
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    expect_error(
        &text,
        &["--strategy", "bogus"],
        &["--strategy bogus: unknown strategy"],
    );
    expect_error(
        &text,
        &["--strategy", "flags", "--goal", "maximize"],
        &["--strategy flags: strategy \"flags\" does not apply"],
    );
    expect_error(
        &text,
        &["--optimum", "3"],
        &["<stdin>: no strategy applies"],
    );
}

/// `--set rules.count=` in a 14-line file was reported at line 17: a value a `--set` gave is
/// on no line of the file, so the error names the argument.
#[test]
fn errors_in_set_values_name_the_argument() {
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    for (set, says) in [
        (
            "rules.count=",
            "(--set rules.count=): key `rules.count`: invalid type",
        ),
        (
            "rules.count=99",
            "(--set rules.count=99): key `rules.count`: 99 pieces",
        ),
        (
            "board.size=-3",
            "(--set board.size=-3): key `board.size`: -3 is not a board side",
        ),
        // A key name TOML writes quoted, in a table TOML writes quoted.
        (
            "[rules]=1",
            "(--set [rules]=1): key `[rules]`: unknown field `[rules]`",
        ),
        (
            "[rules].count=1",
            "(--set [rules].count=1): key `[rules]`: unknown field `[rules]`",
        ),
        (
            "rules.\"count\"=1",
            "(--set rules.\"count\"=1): key `rules`: unknown field `\"count\"`",
        ),
    ] {
        let (code, err) = run_text(&text, &["--set", set]);
        assert_eq!(code, 2, "{set}: {err}");
        assert!(err.contains(&format!("<stdin> {says}")), "{set}: {err}");
    }
}

/// `--time-limit 1e20` was refused with an "accepted" range it satisfied; `--node-limit 0`
/// was accepted while `--threads 0` was not.
#[test]
fn limit_errors_state_the_range_they_check() {
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    expect_error(
        &text,
        &["--time-limit", "1e20"],
        &["--time-limit", "more than 0 and less than 1e9"],
    );
    expect_error(
        &format!("{text}[solve]\ntime_limit = 1e12\n"),
        &[],
        &["solve.time_limit", "more than 0 and less than 1e9"],
    );
    expect_error(
        &text,
        &["--node-limit", "0"],
        &["--node-limit 0: accepted: 1 or more"],
    );
}

/// A value that is not a number of the flag's kind (a negative whole number, a word) is
/// refused by the command line's parser, naming what the option's table accepts.
#[test]
fn flag_values_that_are_not_numbers_name_the_range() {
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    for (flag, value, accepted) in [
        ("--threads", "-1", "accepted: a whole number, 1 to 1024"),
        ("--threads", "two", "accepted: a whole number, 1 to 1024"),
        (
            "--time-limit",
            "abc",
            "accepted: seconds, more than 0 and less than 1e9",
        ),
        (
            "--node-limit",
            "1.5",
            "accepted: a whole number, 1 or more nodes",
        ),
        ("--limit", "-2", "accepted: a whole number, 0 or more"),
        ("--size", "x", "accepted: a whole number"),
    ] {
        expect_error(
            &text,
            &[flag, value],
            &[&format!("invalid value '{value}' for '{flag} "), accepted],
        );
    }
}

/// `--memory` takes bytes or K, M, G, T (powers of 1024); anything else is refused naming
/// the option and what it accepts.
#[test]
fn memory_sizes_that_do_not_parse_are_refused_naming_the_option() {
    let text = format!("{HEAD}size = 4\n[piece]\nmoves = \"Q\"\n");
    for bad in ["4X", "0", "", "G", "1.5.2G", "99999999999T"] {
        expect_error(
            &text,
            &["--memory", bad],
            &[
                &format!("--memory {bad}: accepted: a size in bytes, or with K, M, G or T"),
                "e.g. 512M or 4G",
            ],
        );
    }
    for good in ["4G", "1.5GiB", "512m", "100000000", "64MB"] {
        let (code, err) = run_text(&text, &["--memory", good]);
        assert_eq!(code, 0, "--memory {good}: {err}");
    }
}

/// `--width -1` was taken for an unknown flag `-1`, with the advice to write `-- -1`: a
/// negative number after a numeric option is that option's (bad) value, and `--part -1/2`
/// is a bad part.
#[test]
fn negative_option_values_name_their_option() {
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    for (flag, says) in [
        ("--size", "invalid value '-1' for '--size"),
        ("--width", "invalid value '-1' for '--width"),
        ("--height", "invalid value '-1' for '--height"),
        ("--threads", "invalid value '-1' for '--threads"),
        ("--node-limit", "invalid value '-1' for '--node-limit"),
        ("--limit", "invalid value '-1' for '--limit"),
        ("--optimum", "invalid value '-1' for '--optimum"),
        ("--estimate", "invalid value '-1' for '--estimate"),
        ("--time-limit", "--time-limit`: -1: accepted: seconds"),
    ] {
        expect_error(&text, &[flag, "-1"], &[says]);
    }
    expect_error(&text, &["--part", "-1/2"], &["--part -1/2: accepted: I/N"]);
}

/// A control character in a comment got the TOML parser's empty message: `<stdin>:1:5: ` and
/// nothing after it. The error says what stands there, read from the file or after `--set`.
#[test]
fn control_characters_are_named() {
    let text = format!("# a \u{0} b\n{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    let says = "<stdin>:1:5: control character U+0000 is not accepted here; accepted: tab";
    expect_error(&text, &[], &[says]);
    expect_error(&text, &["--set", "rules.count=3"], &[says]);
}

/// `board = 5` was refused as "expected struct RawBoard", `solve = ["count"]` as "invalid
/// length 1, expected struct RawSolve with 6 elements", and `board = [5, 5, 5, []]` was read
/// as a board by position. A table of the file is a TOML table, and anything else is refused
/// with the keys it takes.
#[test]
fn tables_given_as_other_values_name_their_keys() {
    let board = "expected a table [board] with keys size, width, height, holes";
    let cases: [(&str, &[&str]); 7] = [
        (
            "board = 5\n",
            &["<stdin>:2:9: key `board`: invalid type: integer `5`", board],
        ),
        (
            "board = [5, 5, 5, []]\n",
            &["<stdin>:2:9: key `board`: invalid type: array", board],
        ),
        (
            "[[board]]\nsize = 5\n",
            &["<stdin>:2:1: key `board`: invalid type: array", board],
        ),
        (
            "[board]\nsize = 5\n[solve]\ngoal = \"count\"\npiece = \"Q\"\n",
            &["<stdin>:6:1: key `solve.piece`: unknown field `piece`"],
        ),
        (
            "piece = \"Q\"\n",
            &[
                "<stdin>:2:9: key `piece`",
                "expected a table [piece] with keys moves, leaps",
            ],
        ),
        (
            "rules = 3\n",
            &[
                "<stdin>:2:9: key `rules`",
                "expected a table [rules]",
                "count, independent",
            ],
        ),
        (
            "solve = [\"count\"]\n",
            &[
                "<stdin>:2:9: key `solve`: invalid type: array",
                "expected a table [solve] with keys goal, strategy, unique, prefixes, branch, limit, time_limit",
            ],
        ),
    ];
    for (text, says) in cases {
        let text = format!("kind = \"independent\"\n{text}");
        expect_error(&text, &[], says);
        let (_, err) = run_text(&text, &[]);
        assert!(!err.contains("struct") && !err.contains("Raw"), "{err}");
    }
    expect_error(
        &format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n"),
        &["--set", "solve=3"],
        &[
            "(--set solve=3): key `solve`",
            "expected a table [solve] with keys goal",
        ],
    );
}

/// Values of the wrong type were refused in serde's words: "expected i64", "invalid type:
/// sequence", "expected a map", and `1e300` written out in 301 digits.
#[test]
fn wrong_types_are_named_in_the_file_words() {
    for (text, says) in [
        (
            "size = \"8\"\n",
            "key `board.size`: invalid type: string \"8\", expected an integer",
        ),
        (
            "size = [8]\n",
            "key `board.size`: invalid type: array, expected an integer",
        ),
        (
            "size = { n = 8 }\n",
            "key `board.size`: invalid type: table, expected an integer",
        ),
        (
            "size = 1e300\n",
            "key `board.size`: invalid type: floating point `1e300`, expected",
        ),
        (
            "size = 8\nholes = 3\n",
            "key `board.holes`: invalid type: integer `3`, expected an array",
        ),
        (
            "size = 8\n[solve]\ntime_limit = \"1\"\n",
            "key `solve.time_limit`: invalid type: string \"1\", expected a number",
        ),
        (
            "size = 8\n[solve]\noptions = 3\n",
            "key `solve.options`: invalid type: integer `3`, expected a table",
        ),
    ] {
        expect_error(&format!("{HEAD}{text}"), &[], &["<stdin>:", says]);
    }
}

/// A multiplicity of 2^32 was refused as outside "0 <= lo <= hi and hi >= 1", which it is
/// not: the stated range is the one checked, up to 2^30 - 1.
#[test]
fn multiplicity_errors_state_the_range_they_check() {
    let cover = |range: &str| {
        format!(
            "kind = \"cover\"\n[rules]\nitems = [\"a\", \"b\"]\noptions = [[\"a\"], [\"a\", \"b\"]]\n\
             [rules.multiplicity]\na = {range}\n"
        )
    };
    let accepted = "accepted: [lo, hi] with 0 <= lo <= hi and 1 <= hi <= 1073741823";
    for range in [
        "[1, 4294967296]",
        "[0, 1073741824]",
        "[0, 0]",
        "[2, 1]",
        "[-1, 1]",
        "[1]",
    ] {
        expect_error(
            &cover(range),
            &[],
            &["<stdin>:6:5: key `rules.multiplicity.a`", accepted],
        );
    }
    let (code, _) = run_text(&cover("[1, 1073741823]"), &["--quiet"]);
    assert_eq!(code, 0);
}

/// Three colours of 20 stones on 10x10 with `--time-limit 1` ran 26 s on two threads (and
/// `--node-limit 1000` 5.8 million nodes): the first rows, thousands of them, were shared
/// out to the workers, each of which ran a whole check interval before it saw the limit.
#[test]
fn limits_stop_work_shared_out_to_threads() {
    let text = "kind = \"lines\"\n[board]\nsize = 10\n[rules]\ncolors = [\"a\", \"b\", \"c\"]\n\
                per_color = 20\nmax_per_line = 2\n";
    let args = ["--strategy", "bitmask", "--threads", "2"];
    let start = std::time::Instant::now();
    let (code, err) = run_text(text, &[&args[..], &["--time-limit", "1"]].concat());
    assert_eq!(code, 3, "{err}");
    assert!(
        start.elapsed().as_secs_f64() < 6.0,
        "{:?}: {err}",
        start.elapsed()
    );
    let (code, err) = run_text(text, &[&args[..], &["--node-limit", "1000"]].concat());
    assert_eq!(code, 3, "{err}");
    let nodes: u64 = err
        .split(" | ")
        .find_map(|f| f.strip_suffix(" nodes"))
        .map(|n| n.replace(',', "").parse().unwrap())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(err.contains("[node limit]") && nodes < 10_000, "{err}");
}

/// `--set` rewrites the document before it is read, and the lines moved: a value over several
/// lines replaced by one, or the comments above a replaced key dropped, put a later error
/// lines above its place in the file. Errors point at the file as written.
#[test]
fn errors_after_a_set_point_at_the_line_of_the_file() {
    let text = "# A comment\n# and another\ntitle = \"t\"\nkind = \"tour\"\n[board]\nsize = 6\n\
                holes = [\n  \"a1\",\n  \"b2\",\n]\n[piece]\nmoves = \"NX\"\n";
    let says = "<stdin>:12:11: key `piece.moves`: unknown Betza letter 'X'";
    expect_error(text, &[], &[says]);
    expect_error(text, &["--set", "board.holes=[]"], &[says]);
    expect_error(text, &["--set", "title=\"u\""], &[says]);
    expect_error(text, &["--set", "rules.closed=true"], &[says]);
}

/// A board too large for its kind, or any board for kind cover, was refused at `[board]` or at
/// no line when `--size` or a `--set` gave it (or at a line past the file's end, where a set
/// had added the table): the error names the option or the set.
#[test]
fn board_errors_name_the_option_that_set_the_board() {
    // Domination keeps its limit of 4,096 squares (independent boards go to 10^7 a side).
    let queens = "kind = \"domination\"\n[board]\nsize = 8\n[piece]\nmoves = \"Q\"\n";
    expect_error(
        queens,
        &["--size", "65"],
        &["<stdin>: key `--size 65`: a 65x65 board has 4225 squares"],
    );
    expect_error(
        queens,
        &["--set", "board.size=65"],
        &["<stdin> (--set board.size=65): key `board`: a 65x65 board"],
    );
    expect_error(
        "kind = \"tour\"\n",
        &["--width", "100000", "--height", "100000"],
        &["key `--width 100000 --height 100000`: a 100000x100000 board is too large"],
    );
    let cover = "kind = \"cover\"\n[rules]\nitems = [\"a\"]\noptions = [[\"a\"]]\n";
    expect_error(
        cover,
        &["--size", "3"],
        &["<stdin>: key `--size 3`: kind \"cover\" takes no board"],
    );
    expect_error(
        cover,
        &["--set", "board.holes=[]"],
        &["<stdin> (--set board.holes=[]): key `board`: kind \"cover\" takes no board"],
    );
    expect_error(
        "kind = \"tour\"\n",
        &["--size", "2000", "--set", "piece.moves=W"],
        &["<stdin>: key `--size 2000`: a 2000x2000 board has 4000000 squares"],
    );
}

/// A tour piece given by `rides = [...]` was refused at `piece.moves`, a key the file does
/// not hold, so at no line: the error points at `rides`.
#[test]
fn a_tour_rider_given_by_rides_is_refused_at_rides() {
    expect_error(
        "kind = \"tour\"\n[board]\nsize = 5\n[piece]\nrides = [[0, 1]]\n",
        &[],
        &["<stdin>:5:9: key `piece.rides`: \"R\" rides; a tour takes a leaper"],
    );
}

/// A cover in Knuth's format of 1,000 items ("i0" to "i999") and `entries` item occurrences,
/// five to an option, after `comment` bytes of comment lines; written to a scratch file.
fn knuth_cover_file(tag: &str, comment: usize, entries: usize) -> std::path::PathBuf {
    use std::fmt::Write as _;
    let mut text = String::new();
    while text.len() < comment {
        text.push_str("| a comment line that says nothing, to fill the first bytes of the file\n");
    }
    let items: Vec<String> = (0..1000).map(|k| format!("i{k}")).collect();
    text.push_str(&items.join(" "));
    text.push('\n');
    let (mut x, mut start) = (1u64, 0);
    for k in 0..entries {
        // Five consecutive items from a random start: no item twice in one option.
        if k % 5 == 0 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            start = (x >> 33) as usize % 996;
        }
        let _ = write!(
            text,
            "i{}{}",
            start + k % 5,
            if k % 5 == 4 { "\n" } else { " " }
        );
    }
    let dir = std::env::temp_dir().join(format!("boardsolve-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.dlx"));
    std::fs::write(&file, text).unwrap();
    file
}

fn run_args(args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("solve")
        .unwrap()
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code().unwrap_or(-1), err)
}

/// Reading a large cover in Knuth's format ignored `--memory`: a file of 5 million item
/// occurrences aborted allocating under `ulimit -v` whatever the budget. What reading takes
/// is estimated from the file's size and its first MiB and refused up front, with the size,
/// the estimate, the budget and how to raise it; within a budget that holds it, it is read.
#[test]
fn reading_a_cover_beyond_the_memory_budget_is_refused_up_front() {
    let file = knuth_cover_file("dense", 0, 1_200_000);
    let file = file.to_str().unwrap();
    let (code, err) = run_args(&[file, "--memory", "16M"]);
    assert_eq!(code, 2, "{err}");
    for says in [
        &format!("error: {file}: the file is 5."),
        "reading it would take about 4",
        "item occurrences in",
        "options, estimated from its first MiB",
        "more than the memory budget of 16 MiB (--memory); raise it with --memory 4",
    ] {
        assert!(err.contains(says), "{says:?} in\n{err}");
    }
    let (code, err) = run_args(&["check", file, "--memory", "200M", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(file).unwrap();
}

/// An estimate from the first MiB can miss what follows (here a MiB of comments): the
/// reader then stops at the option where what it built would pass the budget.
#[test]
fn reading_stops_at_the_option_that_passes_the_memory_budget() {
    let file = knuth_cover_file("late", 1 << 20, 1_200_000);
    let file = file.to_str().unwrap();
    let (code, err) = run_args(&[file, "--memory", "16M"]);
    assert_eq!(code, 2, "{err}");
    let at = format!("error: {file}:");
    let line: usize = err
        .strip_prefix(&at)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a line in\n{err}"));
    assert!(line > 14_000, "{err}");
    for says in [
        ":1: reading stopped at this option: the file's text and the problem read so far take",
        "more than the memory budget of 16 MiB (--memory); the whole file would take about",
        "raise it with --memory",
    ] {
        assert!(err.contains(says), "{says:?} in\n{err}");
    }
    std::fs::remove_file(file).unwrap();
}

/// A TOML file is parsed in one step, at about 370 bytes a value: what it would take is
/// checked on its text before that step.
#[test]
fn a_toml_cover_beyond_the_memory_budget_is_refused_before_it_is_parsed() {
    let items: Vec<String> = (0..1000).map(|k| format!("\"i{k}\"")).collect();
    let options: Vec<String> = (0..60_000)
        .map(|k| format!("[\"i{}\", \"i{}\"]", k % 1000, (k + 1) % 1000))
        .collect();
    let text = format!(
        "kind = \"cover\"\n[rules]\nitems = [{}]\noptions = [{}]\n",
        items.join(", "),
        options.join(",\n")
    );
    expect_error(
        &text,
        &["--memory", "16M"],
        &[
            "error: <stdin>: reading this text of 1.",
            "would take about 4",
            "more than the memory budget of 16 MiB (--memory); raise it with --memory 4",
        ],
    );
    let (code, err) = run_text(&text, &["--memory", "64M", "--goal", "first"]);
    assert_eq!(code, 0, "{err}");
}

/// Standard input that never ends kept the reader waiting past `--time-limit`: reading stops
/// at the limit, an error (exit status 2: nothing was solved) naming the flag.
#[test]
fn reading_stops_at_the_time_limit() {
    use std::io::Read as _;
    use std::process::Stdio;
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(["-", "--input", "knuth", "--time-limit", "0.5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Standard input stays open, and empty, until the process ends.
    let _stdin = child.stdin.take();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed().as_secs() > 20 {
            let _ = child.kill();
            panic!("still reading after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains("<stdin>: key `--time-limit`: reading stopped at the time limit of 0.5 s"),
        "{err}"
    );
    assert!(started.elapsed().as_secs_f64() < 5.0, "{err}");
}

/// `--memory 1` was taken, and the run solved as if there were no budget.
#[test]
fn a_memory_budget_below_the_least_is_refused_with_the_range() {
    let text = format!("{HEAD}size = 4\n[piece]\nmoves = \"Q\"\n");
    for small in ["1", "64K", "7M", "7.9M"] {
        expect_error(
            &text,
            &["--memory", small],
            &[&format!("--memory {small}: accepted:"), "from 8M up"],
        );
    }
    let (code, err) = run_text(&text, &["--memory", "8M"]);
    assert_eq!(code, 0, "{err}");
}

/// `--memory 1000T` under `ulimit -v` was taken as the budget, so the checks passed and the
/// run aborted where the system gave no more: the budget is capped at 3/4 of what the system
/// gives, with a note, and a job beyond that is refused up front.
#[cfg(target_os = "linux")]
#[test]
fn a_memory_budget_beyond_what_the_system_gives_is_capped() {
    let bin = assert_cmd::cargo::cargo_bin("solve");
    let pentominoes = format!("{}/puzzles/pentominoes.toml", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 500000 && exec '{}' check '{pentominoes}' --strategy dlx --threads 1024 --memory 1000T",
            bin.display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for says in [
        "note: --memory 1000 TiB is more than this process can use: the budget is 366 MiB, \
         3/4 of 488 MiB (`ulimit -v`",
        "a copy of them for each of 1024 threads, more than the memory budget of 366 MiB",
    ] {
        assert!(err.contains(says), "{says:?} in\n{err}");
    }
}

fn run_bytes(text: &[u8], extra: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("solve")
        .unwrap()
        .arg("-")
        .args(extra)
        .write_stdin(text.to_vec())
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code().unwrap_or(-1), err)
}

/// Invalid UTF-8 gave "stream did not contain valid UTF-8" and no place: the error names the
/// line and column of the first byte that is not UTF-8, in either format.
#[test]
fn a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
    let toml = b"kind = \"independent\"\n# caf\xe9 \xff\n[board]\nsize = 4\n";
    let (code, err) = run_bytes(toml, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("<stdin>:2:6: byte 0xE9 is not UTF-8; accepted: a puzzle file in UTF-8 text"),
        "{err}"
    );
    let knuth = "| titl\u{e9}\na b\n"
        .as_bytes()
        .iter()
        .chain(b"a \xc3b\n")
        .copied();
    let (code, err) = run_bytes(&knuth.collect::<Vec<u8>>(), &["--input", "knuth"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("<stdin>:3:3: byte 0xC3 is not UTF-8"), "{err}");
    let file = std::env::temp_dir().join(format!("boardsolve-latin1-{}.dlx", std::process::id()));
    std::fs::write(&file, b"a b\n\xe9\n").unwrap();
    let (code, err) = run_args(&[file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}:2:1: byte 0xE9 is not UTF-8", file.display())),
        "{err}"
    );
}

/// An argument that is not UTF-8 got clap's "invalid UTF-8 was detected in one or more
/// arguments": the error names it and the option before it.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::os::unix::ffi::OsStrExt;
    let text = format!("{HEAD}size = 4\n[piece]\nmoves = \"Q\"\n");
    let out = Command::cargo_bin("solve")
        .unwrap()
        .arg("-")
        .arg("--set")
        .arg(std::ffi::OsStr::from_bytes(b"rules.count=\xff"))
        .write_stdin(text)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("argument 3, after --set, is not UTF-8: \"rules.count=\u{FFFD}\""),
        "{err}"
    );
    let out = Command::cargo_bin("solve")
        .unwrap()
        .arg(std::ffi::OsStr::from_bytes(b"caf\xe9.toml"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("argument 1 is not UTF-8: \"caf\u{FFFD}.toml\"") && err.contains("rename"),
        "{err}"
    );
}

/// A NUL, a control or a bidirectional control as `piece.symbol` was accepted and written
/// raw into the SVG, which then was no XML; a terminal acts on such characters too.
#[test]
fn symbols_that_are_controls_or_invisible_are_refused() {
    for (escape, what) in [
        ("\\u0000", "U+0000 is a control character"),
        ("\\u001b", "U+001B is a control character"),
        ("\\u0085", "U+0085 is a control character"),
        ("\\u202e", "U+202E is a bidirectional formatting character"),
        ("\\u2066", "U+2066 is a bidirectional formatting character"),
        ("\\u200f", "U+200F is a bidirectional formatting character"),
        ("\\u200b", "U+200B is an invisible formatting character"),
    ] {
        let text = format!("{HEAD}size = 4\n[piece]\nmoves = \"Q\"\nsymbol = \"{escape}\"\n");
        expect_error(
            &text,
            &[],
            &[
                &format!("<stdin>:6:10: key `piece.symbol`: {what}"),
                "accepted: one printable character",
            ],
        );
    }
    let text = format!("{HEAD}size = 4\n[piece]\nmoves = \"Q\"\nsymbol = \"\u{3a9}\"\n");
    let (code, err) = run_text(&text, &["--goal", "first"]);
    assert_eq!(code, 0, "{err}");
}

/// Whatever the title holds, the SVG is XML: markup characters escaped, characters that XML
/// forbids (a NUL, an escape) replaced.
#[test]
fn svg_text_is_xml_whatever_the_title_holds() {
    let text = format!(
        "title = \"a\\u0000b\\u001b <&> \\\"q\\\" 's'\"\n{HEAD}size = 4\n[piece]\nmoves = \"Q\"\n"
    );
    let out = Command::cargo_bin("solve")
        .unwrap()
        .args(["-", "--goal", "first", "--format", "svg"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(
        svg.contains("<title>a\u{FFFD}b\u{FFFD} &lt;&amp;&gt; &quot;q&quot; &apos;s&apos;</title>"),
        "{svg}"
    );
    let forbidden = |c: char| (c < ' ' && !"\t\n\r".contains(c)) || c == '\u{FFFE}';
    assert!(!svg.chars().any(forbidden), "{svg}");
}

/// `--width` or `--height` on a file in Knuth's format was reported as `--size`.
#[test]
fn board_flags_on_a_knuth_file_are_named_as_given() {
    for (flag, value) in [("--width", "3"), ("--height", "4"), ("--size", "5")] {
        expect_error(
            "a b\na b\n",
            &["--input", "knuth", flag, value],
            &[&format!(
                "<stdin>: key `{flag} {value}`: an exact cover takes no board"
            )],
        );
    }
}

/// A flag and a `--set` of its key on one command line: the flag would win unseen, so the
/// run is refused naming both; a flag with a `--set` of another key is taken.
#[test]
fn a_flag_and_a_set_of_its_key_are_refused_together() {
    let text = format!("{HEAD}size = 8\n[piece]\nmoves = \"Q\"\n");
    for (args, says) in [
        (
            &["--goal", "count", "--set", "solve.goal=maximize"][..],
            "<stdin>: key `solve.goal`: given twice on the command line, by --goal count and \
             by --set solve.goal=maximize; accepted: one of them",
        ),
        (
            &["--set", "solve.threads=2", "--threads", "3"][..],
            "key `solve.threads`: given twice on the command line, by --threads 3 and by \
             --set solve.threads=2",
        ),
        (
            &["--unique", "--set", "solve.unique=false"][..],
            "key `solve.unique`: given twice on the command line, by --unique and by --set \
             solve.unique=false",
        ),
        (
            &["--size", "6", "--set", "board.size=5"][..],
            "key `board.size`: given twice on the command line, by --size 6 and by --set \
             board.size=5",
        ),
    ] {
        expect_error(&text, args, &[says]);
    }
    let (code, err) = run_text(&text, &["--goal", "count", "--set", "solve.threads=2"]);
    assert_eq!(code, 0, "{err}");
}

/// A `--set` key deeper or longer than any key of a puzzle file is refused at once, by the
/// option and its start, before any table is built; the deepest key of the file is taken.
#[test]
fn a_set_key_too_deep_or_too_long_is_refused_at_once() {
    let text = format!("{HEAD}size = 6\n[piece]\nmoves = \"Q\"\n");
    let deep = format!("{}b=1", "a.".repeat(10_000));
    let long = format!("{}=1", "k".repeat(300));
    let start = std::time::Instant::now();
    expect_error(
        &text,
        &["--set", &deep],
        &[
            "--set a.a.a.",
            "the key path has 10,001 parts; accepted: up to 4",
        ],
    );
    expect_error(
        &text,
        &["--set", &long],
        &["the key path is 300 bytes long; accepted: up to 256"],
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    let (code, err) = run_text(
        &text,
        &["--goal", "count", "--set", "solve.options.bnb.root_steps=2"],
    );
    assert!(!err.contains("the key path"), "{code}: {err}");
}
