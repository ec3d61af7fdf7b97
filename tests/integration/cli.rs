//! The `solve` command as a user runs it: output formats, exit statuses, commands.

use assert_cmd::Command;

use crate::{puzzle, run_cli};

fn solve() -> Command {
    Command::cargo_bin("solve").unwrap()
}

#[test]
fn queens8_prints_the_count_and_a_summary() {
    let (code, out, err) = run_cli(&[&puzzle("queens8.toml")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("92 solutions"), "{out}");
    assert!(err.contains("92 solutions | "), "{err}");
    assert!(err.contains(" nodes | "), "{err}");
}

#[test]
fn first_solution_prints_a_board() {
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--goal",
        "first",
        "--strategy",
        "backtrack",
    ]);
    assert_eq!(code, 0);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.contains('Q') || l.starts_with(". "))
        .collect();
    assert_eq!(rows.len(), 8, "{out}");
    for r in &rows {
        assert_eq!(r.matches('Q').count(), 1, "{out}");
        assert_eq!(r.split(' ').count(), 8, "{out}");
    }
}

#[test]
fn json_has_the_contracted_fields_and_valid_solutions() {
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--goal",
        "all",
        "--size",
        "6",
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "title",
        "kind",
        "goal",
        "strategy",
        "status",
        "count",
        "optimum",
        "proven",
        "solutions",
        "stats",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {out}");
    }
    assert_eq!(v["status"], "solved");
    assert_eq!(v["count"], 4);
    assert_eq!(v["board"], serde_json::json!({"width": 6, "height": 6}));
    assert_eq!(v["stats"]["solutions"], 4);
    assert!(v["stats"]["nodes"].is_u64());
    assert!(v["stats"]["elapsed_ms"].is_number());
    let q = crate::validate::TestPiece::from_letters("Q");
    let sols = v["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), 4);
    for s in sols {
        let rc: Vec<(i64, i64)> = s
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
            .collect();
        crate::validate::check_placement(&crate::validate::TestBoard::square(6), &q, 6, &rc);
    }
}

#[test]
fn limit_caps_printed_solutions_not_the_count() {
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--goal",
        "all",
        "--limit",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], 92);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 2);
}

#[test]
fn svg_draws_the_board() {
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--goal",
        "first",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<svg"), "{out}");
    assert_eq!(out.matches("<rect x").count(), 64 + 1);
    assert_eq!(out.matches("<circle").count(), 8);
}

/// The `<svg` tag's width, height and viewBox.
fn svg_box(out: &str) -> (String, String, Option<String>) {
    let tag = &out[..out.find('>').expect("a tag")];
    let attr = |name: &str| {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    (
        attr("width").expect("a width"),
        attr("height").expect("a height"),
        attr("viewBox"),
    )
}

/// Every drawing scales: a viewBox the size of its width and height, whatever it draws
/// (boards, shapes, option lists, nothing found).
#[test]
fn svg_drawings_have_a_viewbox_of_their_size() {
    let knuth = puzzle("knuth7.dlx");
    let cases: [&[&str]; 4] = [
        &[&puzzle("queens8.toml"), "--goal", "first"],
        &[&puzzle("queens8.toml"), "--goal", "first", "--size", "3"],
        &[&puzzle("pentominoes6x10.toml"), "--goal", "first"],
        &[&knuth, "--goal", "first"],
    ];
    for args in cases {
        let mut args = args.to_vec();
        args.extend(["--format", "svg"]);
        let (_, out, err) = run_cli(&args);
        assert!(out.starts_with("<svg"), "{args:?}: {out}{err}");
        let (w, h, view) = svg_box(&out);
        assert_eq!(view, Some(format!("0 0 {w} {h}")), "{args:?}: {out}");
    }
}

#[test]
fn svg_refuses_goal_count_which_keeps_nothing_to_draw() {
    let (code, out, err) = run_cli(&[&puzzle("queens8.toml"), "--format", "svg"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--format svg draws solutions")
            && err.contains("use a goal that shows solutions"),
        "{err}"
    );
}

#[test]
fn json_stats_count_a_best_solution_and_name_counters_in_snake_case() {
    let (code, out, _) = run_cli(&[&puzzle("knights8.toml"), "--format", "json", "--quiet"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["solutions"].as_array().unwrap().len(), 1);
    assert_eq!(v["stats"]["solutions"], 1);
    let stats = v["stats"].as_object().unwrap();
    assert!(stats.contains_key("bound_prunes"), "{out}");
    assert!(stats.keys().all(|k| !k.contains(' ')), "{out}");
    // A cover has no board.
    let (code, out, _) = run_cli(&[&puzzle("sudoku.toml"), "--format", "json", "--quiet"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("board").is_none(), "{out}");
}

#[test]
fn no_solution_exits_1_and_limits_exit_3() {
    let (code, out, _) = run_cli(&[&puzzle("queens8.toml"), "--size", "3"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no solution"), "{out}");
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--size",
        "14",
        "--strategy",
        "backtrack",
        "--node-limit",
        "20000",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("at least"), "{out}");
    assert!(out.contains("node limit"), "{out}");
}

#[test]
fn standard_input_and_output_file() {
    let text = std::fs::read_to_string(puzzle("queens8.toml")).unwrap();
    let dir = std::env::temp_dir().join(format!("boardsolve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.json");
    solve()
        .args(["-", "--format", "json", "--output"])
        .arg(&path)
        .write_stdin(text)
        .assert()
        .success();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["count"], 92);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--output` naming the puzzle file itself (by its own path, another spelling of it, or a
/// hard link) is refused before anything is written, in every mode: the puzzle is left whole.
#[test]
fn output_naming_the_input_is_refused_and_the_input_kept() {
    let dir = std::env::temp_dir().join(format!("boardsolve-same-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let toml = dir.join("queens.toml");
    let text = std::fs::read_to_string(puzzle("queens8.toml")).unwrap();
    std::fs::write(&toml, &text).unwrap();
    let lines = dir.join("lines.txt");
    let grid = format!("{}\n", ".".repeat(81));
    std::fs::write(&lines, &grid).unwrap();
    let link = dir.join("link.txt");
    std::fs::hard_link(&lines, &link).unwrap();
    let dotted = dir.join(".").join("queens.toml");
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let cases: [(Vec<String>, &std::path::Path, &str); 5] = [
        (vec![s(&toml), "--output".into(), s(&toml)], &toml, &text),
        (vec![s(&toml), "--output".into(), s(&dotted)], &toml, &text),
        (
            vec![
                s(&toml),
                "--format".into(),
                "knuth-input".into(),
                "--output".into(),
                s(&toml),
            ],
            &toml,
            &text,
        ),
        (
            vec![
                s(&lines),
                "--input".into(),
                "lines".into(),
                "--output".into(),
                s(&lines),
            ],
            &lines,
            &grid,
        ),
        (
            vec![
                s(&lines),
                "--input".into(),
                "lines".into(),
                "--output".into(),
                s(&link),
            ],
            &lines,
            &grid,
        ),
    ];
    for (args, kept, was) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains("--output") && err.contains("is the puzzle file"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(kept).unwrap(), was, "{args:?}");
    }
    // Standard input redirected from the file counts as the file.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(["-", "--output"])
        .arg(&toml)
        .stdin(std::fs::File::open(&toml).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&toml).unwrap(), text);
    // Another file is written as ever.
    let other = dir.join("answer.txt");
    let (code, _, err) = run_cli(&[&s(&toml), "--output", &s(&other)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&other)
            .unwrap()
            .contains("92 solutions")
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn set_overrides_any_key() {
    let (code, out, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--set",
        "piece.moves=R",
        "--size",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("120 solutions"), "{out}");
}

#[test]
fn check_and_strategies_commands() {
    let (code, out, _) = run_cli(&["check", &puzzle("queens8.toml")]);
    assert_eq!(code, 0);
    assert!(out.contains("ok"), "{out}");
    assert!(out.contains("8 x Q on an 8x8 board"), "{out}");
    // The piece as the file wrote it, with the Betza form the solver reads.
    let (code, out, _) = run_cli(&["check", &puzzle("kings-holes.toml")]);
    assert_eq!(code, 0);
    assert!(out.contains("8 x K (WF) on a 6x6 board"), "{out}");
    let (code, out, _) = run_cli(&["strategies", &puzzle("knights-max.toml")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("flags      does not apply: needs a line piece"),
        "{out}"
    );
    assert!(out.contains("bitmask    applies"), "{out}");
    let (code, out, _) = run_cli(&["strategies"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("independent:") && out.contains("cover:"),
        "{out}"
    );
}

#[test]
fn compare_sweeps_sizes_and_marks_the_budget() {
    let (code, out, err) = run_cli(&[
        "compare",
        &puzzle("queens8.toml"),
        "--size",
        "4..9",
        "--budget",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let header = out.lines().next().unwrap();
    for s in ["brute", "backtrack", "flags", "bitmask", "dlx"] {
        assert!(header.contains(s), "{out}");
    }
    let row9 = out
        .lines()
        .find(|l| l.trim_start().starts_with("9 "))
        .unwrap();
    assert!(row9.contains("352"), "{out}");
    // brute force is past its reach at n = 9 (9^9 candidates is within it, 10^10 is not) or
    // over the budget; either way the table keeps going.
    let (code, out, _) = run_cli(&["compare", &puzzle("queens8.toml")]);
    assert_eq!(code, 0);
    assert_eq!(out.matches(" 92 ").count(), 5, "{out}");
}

#[test]
fn time_limit_stops_a_long_search_with_exit_3() {
    let started = std::time::Instant::now();
    let (code, out, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--size",
        "22",
        "--strategy",
        "backtrack",
        "--time-limit",
        "0.3",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("time limit"), "{out}");
    assert!(started.elapsed().as_secs_f64() < 10.0);
}

/// Run `solve ARGS`, wait until it catches signal `signo` (installed just before the search
/// starts), `wait` more, send the signal by name; exit status and standard output.
fn signalled(args: &[&str], signal: &str, signo: u32, wait: f64) -> (Option<i32>, String) {
    let (code, out, _) = signalled_timed(args, signal, signo, wait);
    (code, out)
}

/// [`signalled`], with the time from the signal to the exit.
fn signalled_timed(
    args: &[&str],
    signal: &str,
    signo: u32,
    wait: f64,
) -> (Option<i32>, String, std::time::Duration) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // The kernel lists caught signals in /proc/PID/status ("SigCgt", a hex mask; signal k is
    // bit k - 1).
    let catches = || {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                let mask = s
                    .lines()
                    .find_map(|l| l.strip_prefix("SigCgt:"))?
                    .trim()
                    .to_string();
                u64::from_str_radix(&mask, 16).ok()
            })
            .is_some_and(|m| m & (1 << (signo - 1)) != 0)
    };
    let waited = std::time::Instant::now();
    while !catches() {
        if waited.elapsed().as_secs() >= 30 {
            // Not left searching after the test.
            let _ = child.kill();
            let _ = child.wait();
            panic!("the solver never became ready");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    std::thread::sleep(std::time::Duration::from_secs_f64(wait));
    let killed = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    let sent = std::time::Instant::now();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        sent.elapsed(),
    )
}

/// A domination search on 64x64 with queens and knights combined spends a second and more on
/// one node: its limits are looked at by the clock, not every few thousand nodes.
const SLOW_NODES: [&str; 7] = [
    "--size",
    "64",
    "--set",
    "piece.moves=QN",
    "--set",
    "rules.independent=false",
    "--quiet",
];

#[test]
fn a_search_of_slow_nodes_stops_at_its_time_limit() {
    let started = std::time::Instant::now();
    let mut args = vec![puzzle("knights8.toml")];
    args.extend(SLOW_NODES.iter().map(|s| s.to_string()));
    args.extend(["--time-limit".into(), "1".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run_cli(&args);
    let took = started.elapsed().as_secs_f64();
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("(best found, not proven) [time limit]"),
        "{out}"
    );
    // The search stops within a tick of the limit; the margin is for a loaded machine.
    assert!(took < 4.0, "{took} s");
}

#[test]
fn ctrl_c_stops_a_search_of_slow_nodes_at_once() {
    let mut args = vec![puzzle("knights8.toml")];
    args.extend(SLOW_NODES.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, text, took) = signalled_timed(&args, "INT", 2, 0.5);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("[interrupted]"), "{text}");
    assert!(took.as_secs_f64() < 3.0, "{took:?}");
}

/// An exact cover of 300,000 items: choosing an item scans them all, so a node takes about a
/// millisecond, and the time limit is still kept.
#[test]
fn a_wide_exact_cover_stops_at_its_time_limit() {
    use std::fmt::Write;
    let n = 300_000;
    let mut text = String::from("kind = \"cover\"\n[rules]\nitems = [");
    for k in 0..n {
        let _ = write!(text, "\"i{k}\",");
    }
    text.push_str("]\noptions = [");
    for k in 0..n - 1 {
        let _ = write!(text, "[\"i{k}\",\"i{}\"],", k + 1);
    }
    for k in (0..n).step_by(7) {
        let _ = write!(text, "[\"i{k}\"],");
    }
    text.push_str("]\n");
    let dir = std::env::temp_dir().join(format!("boardsolve-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wide.toml");
    std::fs::write(&file, text).unwrap();
    let timed = |limit: &str, value: &str| {
        let started = std::time::Instant::now();
        let (code, out, err) = run_cli(&[file.to_str().unwrap(), limit, value, "--quiet"]);
        assert_eq!(code, 3, "{out}{err}");
        (out, started.elapsed().as_secs_f64())
    };
    // Reading and building take what they take on this machine: one node's run measures it.
    let (_, fixed) = timed("--node-limit", "1");
    let (out, took) = timed("--time-limit", "1.5");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.contains("[time limit]"), "{out}");
    assert!(
        took < fixed.max(1.5) + 1.5,
        "{took} s, reading and building {fixed} s"
    );
}

/// `--node-limit N` stops at N nodes where the strategy counts node by node, and where it
/// counts in steps of several, the summary says it passed the limit.
#[test]
fn the_node_limit_stops_where_it_says() {
    let nodes = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--format", "json", "--quiet"]);
        let (code, out, err) = run_cli(&all);
        assert_eq!(code, 3, "{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["stopped"], "node limit", "{out}");
        v["stats"]["nodes"].as_u64().unwrap()
    };
    let queens = puzzle("queens8.toml");
    let q14 = ["--size", "14", "--node-limit", "1000", "--threads", "1"];
    let mut args = vec![queens.as_str(), "--strategy", "backtrack"];
    args.extend(q14);
    assert_eq!(nodes(&args), 1000);
    let pent = puzzle("pentominoes.toml");
    assert_eq!(nodes(&[&pent, "--node-limit", "1", "--threads", "1"]), 1);
    let lines = puzzle("no-three-in-line.toml");
    assert_eq!(nodes(&[&lines, "--node-limit", "1", "--threads", "1"]), 1);
    // The queens counter adds its nodes in batches (a subtree of its last nine rows at
    // once): it stops within one.
    let mut args = vec![queens.as_str(), "--strategy", "bitmask"];
    args.extend(q14);
    let n = nodes(&args);
    assert!((1000..1000 + 4096).contains(&n), "{n}");
    let (_, _, err) = run_cli(&[&queens, "--node-limit", "1"]);
    assert!(err.contains("node limit 1 passed"), "{err}");
}

#[test]
fn ctrl_c_stops_the_search_and_reports_what_was_found() {
    let (code, text) = signalled(
        &[
            &puzzle("queens8.toml"),
            "--size",
            "22",
            "--strategy",
            "flags",
        ],
        "INT",
        2,
        0.0,
    );
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("interrupted"), "{text}");
}

/// A scheduler's time limit (SIGTERM), a closed terminal (SIGHUP) or a batch system's
/// warning (SIGUSR1, SIGUSR2, SIGXCPU) stops a run as Ctrl-C does: the best placement so
/// far is printed, exit 3.
#[test]
fn sigterm_and_sighup_keep_the_best_answer() {
    let signals = [
        ("TERM", libc::SIGTERM),
        ("HUP", libc::SIGHUP),
        ("USR1", libc::SIGUSR1),
        ("USR2", libc::SIGUSR2),
        ("XCPU", libc::SIGXCPU),
    ];
    for (signal, signo) in signals.map(|(s, n)| (s, n as u32)) {
        let (code, text) = signalled(
            &[&puzzle("knights8.toml"), "--size", "20", "--quiet"],
            signal,
            signo,
            0.5,
        );
        assert_eq!(code, Some(3), "{signal}: {text}");
        assert!(
            text.contains("(best found, not proven) [interrupted]"),
            "{signal}: {text}"
        );
        assert!(text.matches('K').count() >= 62, "{signal}: {text}");
    }
}

/// A part stopped by SIGTERM still writes its record, which says it did not finish.
#[test]
fn a_part_stopped_by_sigterm_leaves_its_record() {
    let dir = std::env::temp_dir().join(format!("boardsolve-sigterm-{}", std::process::id()));
    let path = dir.join("part-1.jsonl");
    let (code, _) = signalled(
        &[
            &puzzle("knights8.toml"),
            "--size",
            "20",
            "--part",
            "1/169",
            "--record",
            path.to_str().unwrap(),
            "--quiet",
        ],
        "TERM",
        15,
        0.2,
    );
    assert_eq!(code, Some(3));
    let line = std::fs::read_to_string(&path).unwrap();
    assert!(line.contains("\"finished\":false"), "{line}");
    assert!(line.contains("\"stopped\":\"interrupted\""), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn goal_all_says_when_it_shows_fewer_solutions_than_it_counted() {
    let (code, out, _) = run_cli(&[&puzzle("queens8.toml"), "--goal", "all", "--limit", "3"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("92 solutions\n(showing the first 3 of them"),
        "{out}"
    );
    assert_eq!(out.matches('Q').count(), 3 * 8, "{out}");
    // --limit 0 counts them all and shows none.
    let (code, out, _) = run_cli(&[&puzzle("queens8.toml"), "--goal", "all", "--limit", "0"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("92 solutions\n(none of them shown: --limit 0; --limit N shows the first N)"),
        "{out}"
    );
    assert!(!out.contains("showing the first 0"), "{out}");
    assert_eq!(out.matches('Q').count(), 0, "{out}");
}

#[test]
fn a_board_changed_on_the_command_line_shows_in_the_title() {
    // The file's title names its own size; a user who asked for another must not be told 5x5.
    let (code, out, err) = run_cli(&[
        &puzzle("tour5x5.toml"),
        "--size",
        "4",
        "--set",
        "rules.closed=true",
        "--quiet",
    ]);
    assert_eq!(code, 1, "{err}");
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.contains("[changed on the command line: board 4x4, rules.closed=true]"),
        "{out}"
    );
    let (code, out, _) = run_cli(&[&puzzle("tour5x5.toml"), "--quiet"]);
    assert_eq!(code, 0);
    assert!(!out.contains("on the command line"), "{out}");
}

/// Every flag that has a `[solve]` or `[board]` key means exactly what the key means: the same
/// answer, the same exit status, with the flag as with `--set` (the JSON answer compared
/// whole, but for the title, which names what `--set` changed, and the time taken).
#[test]
fn each_option_equals_its_set_twin() {
    let knights_no_goal = "kind = \"independent\"\n[board]\nsize = 6\n[piece]\nmoves = \"N\"\n";
    let dir = std::env::temp_dir().join(format!("boardsolve-twins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let knights = dir.join("knights.toml");
    std::fs::write(&knights, knights_no_goal).unwrap();
    let knights = knights.to_str().unwrap().to_string();
    let queens = puzzle("queens8.toml");
    let cases: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        (
            &knights,
            vec!["--goal", "maximize"],
            vec!["--set", "solve.goal=\"maximize\""],
        ),
        (
            &queens,
            vec!["--goal", "bogus"],
            vec!["--set", "solve.goal=\"bogus\""],
        ),
        (
            &queens,
            vec!["--goal", "first", "--strategy", "backtrack"],
            vec![
                "--set",
                "solve.goal=\"first\"",
                "--set",
                "solve.strategy=\"backtrack\"",
            ],
        ),
        (
            &queens,
            vec!["--strategy", "bogus"],
            vec!["--set", "solve.strategy=\"bogus\""],
        ),
        (
            &queens,
            vec!["--unique", "--size", "7"],
            vec!["--set", "solve.unique=true", "--set", "board.size=7"],
        ),
        (
            &queens,
            vec!["--goal", "all", "--limit", "2", "--size", "6"],
            vec![
                "--set",
                "solve.goal=\"all\"",
                "--set",
                "solve.limit=2",
                "--set",
                "board.size=6",
            ],
        ),
        (
            &queens,
            vec!["--threads", "2"],
            vec!["--set", "solve.threads=2"],
        ),
        (
            &queens,
            vec!["--threads", "0"],
            vec!["--set", "solve.threads=0"],
        ),
        (
            &queens,
            vec!["--time-limit", "0"],
            vec!["--set", "solve.time_limit=0"],
        ),
        (
            &queens,
            vec!["--time-limit", "60"],
            vec!["--set", "solve.time_limit=60.0"],
        ),
        (
            &queens,
            vec!["--size", "30000"],
            vec!["--set", "board.size=30000"],
        ),
    ];
    let answer = |file: &str, extra: &[&str]| {
        let mut args = vec![file, "--format", "json", "--quiet"];
        args.extend_from_slice(extra);
        let (code, out, err) = run_cli(&args);
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.remove("title");
            o.get_mut("stats")
                .and_then(|s| s.as_object_mut())
                .map(|s| s.remove("elapsed_ms"));
        }
        (code, v, err)
    };
    for (file, flag, set) in &cases {
        let (c1, a1, e1) = answer(file, flag);
        let (c2, a2, e2) = answer(file, set);
        assert_eq!(c1, c2, "{flag:?} against {set:?}: {e1} / {e2}");
        assert_eq!(a1, a2, "{flag:?} against {set:?}");
        if c1 == 2 {
            assert!(a1.is_null() && !e1.is_empty() && !e2.is_empty());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A board far beyond what a kind handles is refused from its dimensions, before the board
/// is built: at once, naming the kind's limit and the option that set the size. (The
/// independent kind takes any board up to its side limit, 10^7: its construction needs
/// nothing per square.)
#[test]
fn a_board_too_large_for_its_kind_is_refused_before_it_is_built() {
    for (file, size, kind) in [
        ("knights8.toml", "30000", "domination"),
        ("lessthanthree.toml", "30000", "lines"),
    ] {
        let (code, _, err) = run_cli(&[&puzzle(file), "--size", size]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("kind \"{kind}\" handles at most")),
            "{err}"
        );
        assert!(err.contains(&format!("key `--size {size}`")), "{err}");
    }
}

/// `check` refuses what a solve would refuse before searching: an unknown strategy, or a task
/// no strategy takes.
#[test]
fn check_refuses_what_solving_refuses() {
    for args in [
        vec![puzzle("queens8.toml"), "--strategy".into(), "foo".into()],
        vec![puzzle("sudoku.toml"), "--unique".into()],
        vec![
            puzzle("knights8.toml"),
            "--part".into(),
            "1/2".into(),
            "--strategy".into(),
            "dlx".into(),
        ],
    ] {
        let mut a = vec!["check"];
        a.extend(args.iter().map(String::as_str));
        let (code, out, err) = run_cli(&a);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        let (solve_code, _, solve_err) = run_cli(&a[1..]);
        assert_eq!(solve_code, 2, "{args:?}");
        assert_eq!(err, solve_err, "{args:?}");
    }
    let (code, out, _) = run_cli(&["check", &puzzle("queens8.toml")]);
    assert_eq!(code, 0);
    assert!(out.contains("strategy bitmask"), "{out}");
}

/// A cover file has no board: every board flag is refused alike.
#[test]
fn board_flags_are_refused_on_a_cover_file() {
    for flag in ["--size", "--width", "--height"] {
        let (code, _, err) = run_cli(&[&puzzle("sudoku.toml"), flag, "4"]);
        assert_eq!(code, 2, "{flag}: {err}");
        assert!(err.contains("takes no board"), "{flag}: {err}");
    }
}

/// `solve compare ... | head -1`: a reader that goes away ends the run quietly (SIGPIPE, as
/// Unix filters end), with no panic and no backtrace.
#[test]
fn a_broken_pipe_ends_the_run_quietly() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    for args in [
        vec!["compare", &puzzle("queens8.toml"), "--size", "4..10"],
        vec!["strategies"],
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        drop(out);
        let done = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // Ended by SIGPIPE, or done before it wrote again.
        assert!(
            done.status.signal() == Some(libc::SIGPIPE) || done.status.success(),
            "{args:?}: {:?} {err}",
            done.status
        );
    }
}

/// `--set board.holes=...` changes the holes, not the size: the banner says which set, not
/// "board 8x8".
#[test]
fn the_banner_names_a_set_that_does_not_resize() {
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--set",
        "board.holes=[\"a1\"]",
        "--goal",
        "count",
    ]);
    assert_eq!(code, 0);
    let title = out.lines().next().unwrap();
    assert!(
        title.ends_with("[changed on the command line: board.holes=[\"a1\"]]"),
        "{title}"
    );
    let (_, out, _) = run_cli(&[&puzzle("queens8.toml"), "--set", "board.size=6"]);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("[changed on the command line: board 6x6]")
    );
}

/// `compare --size 1..100000` solved every size to 64 before refusing the range: the end of a
/// sweep is checked first.
#[test]
fn a_sweep_past_the_kinds_limit_is_refused_at_once() {
    let (code, out, err) = run_cli(&["compare", &puzzle("knights8.toml"), "--size", "1..100"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--size 1..100: "), "{err}");
    // Nothing solved: no table row was written.
    assert!(err.contains("handles at most 4096"), "{err}");
}

/// Every command that writes to standard output says so when the write fails (a full disk)
/// and exits 2; none panics.
#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let file = puzzle("queens8.toml");
    let commands: [&[&str]; 7] = [
        &["check", &file],
        &["strategies"],
        &["strategies", &file],
        &["compare", &file, "--size", "4..5"],
        &["completions", "bash"],
        &["man"],
        &["plan", &file, "--parts", "2", "--results", "/nonexistent/r"],
    ];
    for args in commands {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Standard error on a full disk (a batch system's log): the summary and notes are let go,
/// and the exit status is what the run gives, not a panic's.
#[test]
fn a_full_disk_under_standard_error_is_no_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let file = puzzle("queens8.toml");
    let missing = puzzle("no-such-puzzle.toml");
    let record = std::env::temp_dir().join(format!("boardsolve-full-{}", std::process::id()));
    let record = record.join("part-1.jsonl");
    let record = record.to_str().unwrap();
    let commands: [(&[&str], i32); 4] = [
        (&[&file, "--size", "6"], 0),
        (&[&missing], 2),
        (
            &[
                &file, "--goal", "count", "--part", "1/2", "--record", record,
            ],
            0,
        ),
        (&["merge", record], 3),
    ];
    for (args, code) in commands {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
            .args(args)
            .stderr(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(std::path::Path::new(record).parent().unwrap());
}

/// A title is the file's, which may be anyone's: its control characters are shown as
/// escapes, not sent to the terminal.
#[test]
fn a_title_cannot_send_escape_codes_to_the_terminal() {
    let (code, out, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--size",
        "4",
        "--quiet",
        "--set",
        "title=\"\\u001b[31mRED\\u0007\"",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(out.contains("\\u{1b}[31mRED\\u{7}"), "{out:?}");
}

/// Goal count on a file without `rules.count` (knights: no default count) counts the
/// largest placements in one run: the answer line and the JSON carry the largest size and
/// the number of its placements; `solve check` says the count is left open.
#[test]
fn count_without_a_count_reports_the_largest_and_its_placements() {
    let file = puzzle("knights-max.toml");
    let (code, out, err) = run_cli(&[&file, "--goal", "count"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 solutions of optimum 32 (proven)"), "{out}");
    assert!(
        err.contains("largest placements, of 32 pieces, counted"),
        "{err}"
    );
    let (code, out, _) = run_cli(&[&file, "--goal", "count", "--format", "json", "--quiet"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], 2, "{out}");
    assert_eq!(v["optimum"], 32, "{out}");
    assert_eq!(v["goal"], "count", "{out}");
    assert_eq!(
        v["solutions"][0].as_array().map(Vec::len),
        Some(32),
        "{out}"
    );
    let (code, out, err) = run_cli(&["check", &file, "--goal", "count"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("as many N as fit on an 8x8 board"), "{out}");
    // A strategy that cannot find the largest size says which can.
    let (code, _, err) = run_cli(&[&file, "--goal", "count", "--strategy", "dlx"]);
    assert_eq!(code, 2);
    assert!(err.contains("served by backtrack and bitmask"), "{err}");
}

/// Shell completion offers the goal names after `--goal`, the branching rules after
/// `--branch` and the strategy names of the library's catalogue (and auto) after
/// `--strategy`, not file names; the values are still checked where the file's keys are.
#[test]
fn completions_offer_goals_and_strategies() {
    let (code, script, err) = run_cli(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    let offered = |flag: &str| -> Vec<String> {
        let case = format!("{flag})\n");
        let at = script
            .find(&case)
            .unwrap_or_else(|| panic!("no case for {flag}"));
        let line = script[at + case.len()..].lines().next().unwrap();
        let words = line
            .split_once("compgen -W \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .unwrap_or_else(|| panic!("{flag} offers no words: {line}"))
            .0;
        words.split(' ').map(str::to_string).collect()
    };
    assert_eq!(offered("--goal"), boardsolve::engine::Goal::NAMES);
    assert_eq!(offered("--branch"), ["fewest", "first"]);
    let strategies = offered("--strategy");
    assert_eq!(strategies[0], "auto");
    for (_, list) in boardsolve::kinds::catalogue() {
        for (name, _, _) in list {
            assert!(
                strategies.iter().any(|s| s == name),
                "{name}: {strategies:?}"
            );
        }
    }
    // An unknown name is refused as the file's key would be, naming what the kind accepts.
    let (code, _, err) = run_cli(&[&puzzle("queens8.toml"), "--goal", "minimize"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("accepted: first, all, count, maximize"),
        "{err}"
    );
}

/// `solve man` prints every command in its own page, and names no other page (no
/// solve-compare(1) that it does not print); each command's own options are there.
#[test]
fn the_man_page_holds_its_commands() {
    let (code, page, err) = run_cli(&["man"]);
    assert_eq!(code, 0, "{err}");
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    assert!(
        !page.contains("(1)"),
        "a reference to another page:\n{page}"
    );
    for command in [
        "compare",
        "strategies",
        "check",
        "plan",
        "merge",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!(".SS \"solve {command}\"")),
            "no section for {command}:\n{page}"
        );
    }
    for own in [
        "\\-\\-strategies",
        "\\-\\-budget",
        "\\-\\-parts",
        "\\-\\-slurm",
        "\\-\\-verify",
    ] {
        assert!(page.contains(&format!("\\fB{own}\\fR")), "{own}:\n{page}");
    }
    // The options the commands share are listed once, in the page's own sections.
    assert_eq!(page.matches("\\fB\\-\\-goal\\fR \\fI").count(), 1, "{page}");
}

/// `solve --help` lists each output format with its line of help, and the shells' completions
/// offer them with it, from the option table; the default is the table's.
#[test]
fn the_output_formats_are_listed_with_their_help() {
    use boardsolve::spec::options::OutputFormat;
    let (code, help, err) = run_cli(&["--help"]);
    assert_eq!(code, 0, "{err}");
    assert!(help.contains("Output format [default: text]"), "{help}");
    for f in OutputFormat::ALL {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {}:", f.name())))
            .unwrap_or_else(|| panic!("--format {} is not listed:\n{help}", f.name()));
        assert!(line.ends_with(f.help()), "{line}");
    }
    let (code, script, err) = run_cli(&["completions", "zsh"]);
    assert_eq!(code, 0, "{err}");
    for f in OutputFormat::ALL {
        // zsh's script quotes in single quotes: a quote is closed, escaped and reopened.
        let help = f.help().replace('\'', "'\\''");
        assert!(
            script.contains(&format!("{}\\:\"{help}\"", f.name())),
            "--format {}:\n{script}",
            f.name()
        );
    }
}
