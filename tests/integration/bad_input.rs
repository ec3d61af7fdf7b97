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
    expect_error(
        &format!("{HEAD}size = 3\n[piece]\nmoves = \"N\"\n"),
        &[],
        &["rules.count", "missing"],
    );
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
