//! Records that cannot lie: `solve merge` refuses damaged and forged records, adds counts
//! exactly, catches parts that disagree with themselves, keeps merging the stored proofs
//! with parts run again today, and `--verify` catches what no record can show.

use super::{puzzle, run_cli, run_cli_with};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("boardsolve-records-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The records of `solve FILE ARGS --part I/N` for each `part` ("2/4", "2/4,1/3"), one line
/// each, in the order given.
pub fn records(file: &str, args: &[&str], parts: &[&str]) -> Vec<String> {
    parts
        .iter()
        .map(|part| {
            let mut a = vec![file, "--part", part, "--format", "json", "--quiet"];
            a.extend(args);
            let (code, out, err) = run_cli(&a);
            assert_eq!(code, 0, "part {part}: {err}");
            let line = out.lines().last().unwrap().to_string();
            assert!(line.starts_with("{\"record\":\"solve-part\""), "{out}");
            line
        })
        .collect()
}

fn queens12() -> Vec<String> {
    records(
        &puzzle("queens8.toml"),
        &["--size", "12", "--goal", "count", "--strategy", "bitmask"],
        &["1/4", "2/4", "3/4", "4/4"],
    )
}

/// `solve merge -` of these lines: exit status, standard output, standard error.
fn merge_lines(lines: &[String], flags: &[&str]) -> (i32, String, String) {
    let mut args = vec!["merge", "-"];
    args.extend(flags);
    run_cli_with(&args, Some(&(lines.join("\n") + "\n")))
}

fn field(line: &str, key: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v[key].clone()
}

fn with(line: &str, key: &str, value: serde_json::Value) -> String {
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    v[key] = value;
    serde_json::to_string(&v).unwrap()
}

/// Decimal strings added digit by digit: the test's own arithmetic, apart from the merge's.
fn add_decimal(a: &str, b: &str) -> String {
    let (a, b): (Vec<u8>, Vec<u8>) = (a.bytes().rev().collect(), b.bytes().rev().collect());
    let (mut out, mut carry) = (Vec::new(), 0);
    for k in 0..a.len().max(b.len()) {
        let d = |x: &Vec<u8>| x.get(k).map_or(0, |c| c - b'0');
        let s = d(&a) + d(&b) + carry;
        out.push(b'0' + s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(b'0' + carry);
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

fn ungroup(s: &str) -> String {
    s.replace(',', "")
}

#[test]
fn counts_add_exactly_past_u128_and_verify_catches_the_forgery() {
    let mut lines = queens12();
    let max = u128::MAX.to_string();
    lines[1] = with(&lines[1], "count", serde_json::json!(max));
    let mut want = max.clone();
    for k in [0, 2, 3] {
        want = add_decimal(&want, field(&lines[k], "count").as_str().unwrap());
    }
    let (code, out, err) = merge_lines(&lines, &[]);
    assert_eq!(code, 0, "{err}");
    let answer = out.lines().last().unwrap();
    assert_eq!(ungroup(answer.split(' ').next().unwrap()), want, "{answer}");
    // The only check that sees a forged count: the part run again.
    let (code, _, err) = merge_lines(&lines, &["--verify", "4", "--seed", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--seed 3"), "{err}");
    assert!(
        err.contains("part 2/4 run again: count 3") && err.contains("the record is not"),
        "{err}"
    );
    // And the honest records pass it.
    let (code, _, err) = merge_lines(&queens12(), &["--verify", "4", "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("as recorded").count(), 4, "{err}");
}

#[test]
fn a_finished_count_without_its_count_is_refused() {
    let mut lines = queens12();
    lines[2] = with(&lines[2], "count", serde_json::Value::Null);
    let (code, _, err) = merge_lines(&lines, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:3:") && err.contains("\"count\": null"),
        "{err}"
    );
    for bad in ["-5", "1e3", "0012", " 7"] {
        let mut lines = queens12();
        lines[0] = with(&lines[0], "count", serde_json::json!(bad));
        let (code, _, err) = merge_lines(&lines, &[]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("decimal digits"), "{bad}: {err}");
    }
}

#[test]
fn a_finished_part_that_says_it_was_stopped_is_refused() {
    let mut lines = queens12();
    lines[1] = with(&lines[1], "stopped", serde_json::json!("time limit"));
    let (code, _, err) = merge_lines(&lines, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:2:") && err.contains("\"stopped\"") && err.contains("not stopped"),
        "{err}"
    );
}

#[test]
fn one_proven_record_does_not_replace_the_parts() {
    let mut lines = queens12();
    lines[0] = with(&lines[0], "proven", serde_json::json!(true));
    let (code, _, err) = merge_lines(&lines, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("\"proven\""), "{err}");
    // A record that says it proved everything before any list, beside parts that cut one.
    let forged = with(&lines[0], "list", serde_json::Value::Null);
    let (code, _, err) = merge_lines(&[forged, queens12()[1].clone()], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the root") && err.contains("a subtree list cut"),
        "{err}"
    );
}

#[test]
fn record_fields_cannot_plant_options_or_another_puzzle_in_commands() {
    let lines = queens12();
    let missing = |mut r: Vec<String>| {
        r.remove(3);
        r
    };
    let cases: [(&str, serde_json::Value, &str); 6] = [
        (
            "args",
            serde_json::json!(["--size", "12", "--goal", "count", "--output", "/tmp/x"]),
            "not options of a part's run",
        ),
        (
            "args",
            serde_json::json!(["--goal", "count", "--strategy", "bitmask", "--size", "13"]),
            "is the puzzle",
        ),
        (
            "file",
            serde_json::json!("x\ntouch PWNED"),
            "control character",
        ),
        (
            "file",
            serde_json::json!(puzzle("knights8.toml")),
            "is the puzzle",
        ),
        ("taken", serde_json::json!(0), "\"taken\""),
        ("kind", serde_json::json!("tour"), "kind"),
    ];
    for (key, value, want) in cases {
        let mut r = missing(lines.clone());
        r[1] = with(&r[1], key, value.clone());
        let (code, out, err) = merge_lines(&r, &[]);
        assert_eq!(code, 2, "{key} = {value}: {out}");
        assert!(err.contains(want), "{key} = {value}: {err}");
        assert!(!out.contains("--output"), "{out}");
    }
    // The honest records print the missing part's command, with the records' own options.
    let (code, out, _) = merge_lines(&missing(lines), &[]);
    assert_eq!(code, 3);
    assert!(
        out.contains("--goal count --strategy bitmask --size 12 --part 4/4 --record"),
        "{out}"
    );
}

#[test]
fn subparts_that_disagree_with_their_whole_part_are_refused() {
    let file = puzzle("queens8.toml");
    let args = ["--size", "10", "--goal", "count", "--strategy", "bitmask"];
    let lines = records(&file, &args, &["1/2", "2/2", "2/2,1/2", "2/2,2/2"]);
    let (code, out, err) = merge_lines(&lines, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("724 solutions"), "{out}");
    let mut forged = lines.clone();
    let c: u64 = field(&lines[3], "count").as_str().unwrap().parse().unwrap();
    forged[3] = with(&lines[3], "count", serde_json::json!((c + 1).to_string()));
    let (code, _, err) = merge_lines(&forged, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("part 2/2") && err.contains("must agree"),
        "{err}"
    );
}

/// A rerun of a part of each stored proof, by this build, merges into it: the fingerprint
/// of a puzzle is the same whatever the build. Quick parts: the knights' parts that took a
/// second, and one constellation of the queens' part 56.
#[test]
fn a_part_run_again_merges_into_each_stored_proof() {
    let root = env!("CARGO_MANIFEST_DIR");
    let knights = puzzle("knights8.toml");
    let queens = puzzle("queens8.toml");
    let cases: [(&str, &str, Vec<&str>, &str, &str); 3] = [
        (
            "knights20-plain.jsonl",
            &knights,
            vec![
                "--strategy",
                "bnb",
                "--size",
                "20",
                "--set",
                "rules.independent=false",
            ],
            "134/169",
            "optimum 62 (proven)",
        ),
        (
            "knights20-independent.jsonl",
            &knights,
            vec!["--strategy", "bnb", "--size", "20"],
            "102/102",
            "optimum 63 (proven)",
        ),
        (
            "queens21.jsonl",
            &queens,
            vec![
                "--goal",
                "count",
                "--strategy",
                "bitmask",
                "--size",
                "21",
                "--threads",
                "1",
            ],
            "56/64,1/188",
            "314,666,222,712 solutions",
        ),
    ];
    for (proof, file, args, part, want) in cases {
        let path = format!("{root}/proofs/{proof}");
        let stored = std::fs::read_to_string(&path).unwrap();
        let again = records(file, &args, &[part]);
        // The stored records name the file as run from the repository's root.
        let again = with(
            &again[0],
            "file",
            serde_json::json!(field(stored.lines().next().unwrap(), "file")),
        );
        let mut lines: Vec<String> = stored.lines().map(str::to_string).collect();
        lines.push(again);
        let mut cmd = assert_cmd::Command::cargo_bin("solve").unwrap();
        let out = cmd
            .current_dir(root)
            .args(["merge", "-"])
            .write_stdin(lines.join("\n") + "\n")
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(0), "{proof}: {stderr}");
        assert_eq!(stdout.lines().last(), Some(want), "{proof}: {stdout}");
    }
}

#[test]
fn records_of_another_fingerprint_scheme_are_refused_saying_why() {
    let lines = queens12();
    let old = lines[1].replace("\"scheme\":2,", "");
    let (code, _, err) = merge_lines(&[lines[0].clone(), old], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:2: a record of fingerprint scheme 1") && err.contains("convert"),
        "{err}"
    );
}

#[test]
fn merge_writes_json_and_its_status() {
    let lines = queens12();
    let (code, out, err) = merge_lines(&lines, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], serde_json::json!(14200));
    assert_eq!(v["status"], "solved");
    assert_eq!(v["merge"]["parts"], 4);
    assert_eq!(v["merge"]["searched"], 4);
    let (code, out, _) = merge_lines(&lines[..3], &["--status"]);
    assert_eq!(code, 3);
    assert!(
        out.contains("parts:    3 of 4 searched; missing 1 part"),
        "{out}"
    );
    assert!(out.contains("left:     about"), "{out}");
    let (code, out, _) = merge_lines(&lines[..3], &["--missing"]);
    assert_eq!(code, 3);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("--part 4/4"), "{out}");
}

#[test]
fn merge_of_a_folder_with_a_plan_and_no_records_lists_every_part() {
    let dir = temp_dir("plan");
    let results = dir.join("results");
    let results = results.to_str().unwrap();
    let (code, _, err) = run_cli(&[
        "plan",
        &puzzle("queens8.toml"),
        "--size",
        "10",
        "--goal",
        "count",
        "--parts",
        "3",
        "--results",
        results,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_cli(&["merge", results]);
    assert_eq!(code, 3, "{err}");
    assert!(out.contains("no part records yet"), "{out}");
    assert_eq!(out.matches("--part ").count(), 3, "{out}");
    // A plan edited to name other arguments would print the commands of another search.
    let plan = format!("{results}/plan.json");
    let text = std::fs::read_to_string(&plan).unwrap();
    std::fs::write(&plan, text.replace("\"10\"", "\"9\"")).unwrap();
    let (code, out, err) = run_cli(&["merge", results]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("with the plan's arguments this file is the puzzle"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn knights12() -> Vec<String> {
    records(
        &puzzle("knights8.toml"),
        &["--size", "12", "--strategy", "bnb"],
        &["1/2", "2/2"],
    )
}

/// Forgeries that fit each field's type and the other checks, but not what the records
/// prove together, or what a part can prove at all.
#[test]
fn optima_that_the_records_do_not_show_are_refused() {
    let lines = knights12();
    let bar = field(&lines[0], "list")["bar"].as_u64().unwrap();
    let cases: [(usize, &str, serde_json::Value, &str); 3] = [
        // A part searches below the bar: it cannot prove none better than more.
        (
            0,
            "none_below",
            serde_json::json!(bar + 48),
            "proves nothing beyond",
        ),
        // A part cannot prove none better than a placement it holds.
        (1, "best", serde_json::json!(bar - 5), "own best"),
        // Nor prove an optimum no record shows a placement of.
        (
            0,
            "none_below",
            serde_json::json!(bar - 1),
            "no record holds a placement",
        ),
    ];
    for (k, key, value, want) in cases {
        let mut forged = lines.clone();
        forged[k] = with(&forged[k], key, value.clone());
        let (code, out, err) = merge_lines(&forged, &[]);
        assert_eq!(code, 2, "{key} = {value}: {out}");
        assert!(err.contains(want), "{key} = {value}: {err}");
    }
    // A stopped record that claims better than every part proves possible.
    let stopped = with(&lines[0], "finished", serde_json::json!(false));
    let stopped = with(&stopped, "best", serde_json::json!(bar - 5));
    let (code, _, err) = merge_lines(&[lines[0].clone(), lines[1].clone(), stopped], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("\"best\"") && err.contains("prove none better"),
        "{err}"
    );
    // The whole answer proven at the root, with no placement to show for it.
    let mut root = with(&lines[0], "proven", serde_json::json!(true));
    root = with(&root, "list", serde_json::Value::Null);
    root = with(&root, "solution", serde_json::Value::Null);
    let (code, _, err) = merge_lines(&[root], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("the optimum's placement"), "{err}");
    // A placement off the board, however far, is refused, not looked up.
    let far = with(&lines[0], "solution", serde_json::json!([1u64 << 40, 3]));
    let (code, _, err) = merge_lines(&[far, lines[1].clone()], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not on the board"), "{err}");
}

#[test]
fn what_a_record_says_of_its_counting_is_checked_against_its_puzzle() {
    let lines = queens12();
    let forged: Vec<String> = lines
        .iter()
        .map(|l| {
            with(
                l,
                "counted",
                serde_json::json!("classes under 8 symmetries"),
            )
        })
        .collect();
    let (code, _, err) = merge_lines(&forged, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("\"counted\""), "{err}");
    // A count at a given optimum counts at the value the options give.
    let file = puzzle("knights8.toml");
    let args = ["--size", "10", "--goal", "count", "--optimum", "16"];
    let counts = records(&file, &args, &["1/2", "2/2"]);
    let (code, out, err) = merge_lines(&counts, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("4 solutions of 16 pieces") && out.contains("which they do not prove"),
        "{out}"
    );
    let mut list = field(&counts[1], "list");
    list["bar"] = serde_json::json!(15);
    let both = [
        with(&counts[0], "list", list.clone()),
        with(&counts[1], "list", list),
    ];
    let (code, _, err) = merge_lines(&both, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("--optimum 16"), "{err}");
    // Counted at a value below the optimum: no placement of it, and merge says so.
    let args = ["--size", "10", "--goal", "count", "--optimum", "15"];
    let none = records(&file, &args, &["1/2", "2/2"]);
    let (code, out, _) = merge_lines(&none, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no solution of 15 pieces"), "{out}");
}

#[test]
fn words_from_records_reach_no_terminal_or_command_raw() {
    let lines = queens12();
    let titled = |t: &str| -> Vec<String> {
        lines
            .iter()
            .map(|l| with(l, "title", serde_json::json!(t)))
            .collect()
    };
    let (code, out, _) = merge_lines(&titled("x\ntouch PWNED\u{1b}[2J"), &[]);
    assert_eq!(code, 0);
    assert!(!out.lines().any(|l| l.starts_with("touch")), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
    let mut forged = lines.clone();
    forged[0] = with(&lines[0], "version", serde_json::json!("1\ntouch PWNED"));
    let (code, _, err) = merge_lines(&forged, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("\"version\""), "{err}");
    // A folder whose name breaks a line is refused before any command is written from it.
    let dir = temp_dir("folder").join("r\ntouch PWNED");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("part-1.jsonl"), &lines[0]).unwrap();
    let (code, out, err) = run_cli(&["merge", "--missing", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("control character"), "{err}");
    // A fifo is not read (it has no size to check, and may never end).
    let fifo = temp_dir("fifo").join("records.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (code, _, err) = run_cli(&["merge", fifo.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("accepted: a regular file"), "{err}");
    for d in [dir.parent().unwrap(), fifo.parent().unwrap()] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The longest time a record may claim (1e10 s, centuries) adds up without a panic; a
/// longer one is no part's time and is refused.
#[test]
fn times_too_long_for_a_clock_are_added_without_a_panic() {
    let at = |secs: f64| -> Vec<String> {
        queens12()
            .iter()
            .map(|l| with(l, "seconds", serde_json::json!(secs)))
            .collect()
    };
    for flags in [&[][..], &["--status"], &["--format", "json"]] {
        let (code, _, err) = merge_lines(&at(1e10), flags);
        assert_eq!(code, 0, "{flags:?}: {err}");
        let (code, _, err) = merge_lines(&at(1e19), flags);
        assert_eq!(code, 2, "{flags:?}: {err}");
        assert!(
            err.contains("\"seconds\": 1e19: accepted: 0 to 1e10"),
            "{err}"
        );
    }
}

/// A part split by a plan of its own, in a folder of its own: merge of both folders lists
/// the part as its subparts, each writing where its plan says; a Slurm plan's missing tasks
/// come as array ids.
#[test]
fn merge_follows_the_plans_of_every_folder_it_is_given() {
    let dir = temp_dir("plans");
    let main = dir.join("R");
    let sub = main.join("part-3");
    let file = puzzle("queens8.toml");
    let plan = |extra: &[&str], results: &std::path::Path| {
        let mut a = vec!["plan", &file, "--size", "10", "--goal", "count"];
        a.extend(extra);
        a.extend(["--results", results.to_str().unwrap()]);
        let (code, out, err) = run_cli(&a);
        assert_eq!(code, 0, "{err}");
        out
    };
    let commands = plan(&["--parts", "4", "--slurm"], &main);
    assert!(commands.starts_with("#!/bin/bash"), "{commands}");
    // The tasks start where the plan was made (the tests run from the package's root).
    let here = std::env::current_dir().unwrap();
    assert!(
        commands.contains(&format!("#SBATCH --chdir={}\n", here.display())),
        "{commands}"
    );
    plan(&["--part", "3/4", "--parts", "2"], &sub);
    let (main_s, sub_s) = (main.to_str().unwrap(), sub.to_str().unwrap());
    let (code, out, _) = run_cli(&["merge", main_s, sub_s]);
    assert_eq!(code, 3);
    assert_eq!(out.matches("--part ").count(), 5, "{out}");
    assert!(
        out.contains(&format!(
            "--part 3/4,2/2 --record {sub_s}/part-3-2of2.jsonl"
        )),
        "{out}"
    );
    // Parts 1 and 2 run: the Slurm plan's tasks 3 and 4 are left, and part 3's subparts.
    for part in ["1/4", "2/4"] {
        let record = main.join(format!("part-{}.jsonl", &part[..1]));
        let (code, _, err) = run_cli(&[
            &file,
            "--size",
            "10",
            "--goal",
            "count",
            "--strategy",
            "bitmask",
            "--part",
            part,
            "--record",
            record.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, _) = run_cli(&["merge", "--missing", main_s]);
    assert_eq!(code, 3);
    assert_eq!(out, "3,4\n");
    let (code, out, _) = run_cli(&["merge", "--missing", main_s, sub_s]);
    assert_eq!(code, 3);
    assert_eq!(out.lines().count(), 3, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The placement that proves an optimum is checked against the puzzle wherever one of the
/// records' files is here, and against the optimum's size even where none is.
#[test]
fn a_placement_is_checked_wherever_its_puzzle_can_be_found() {
    let lines = knights12();
    let forge = |solution: serde_json::Value, elsewhere: bool| -> Vec<String> {
        lines
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let mut r = with(l, "none_below", serde_json::json!(20));
                if k == 0 {
                    r = with(&r, "best", serde_json::json!(20));
                    r = with(&r, "solution", solution.clone());
                } else if elsewhere {
                    r = with(&r, "file", serde_json::json!("elsewhere/knights8.toml"));
                }
                r
            })
            .collect()
    };
    let twenty: Vec<usize> = (0..20).collect();
    let (code, _, err) = merge_lines(&forge(serde_json::json!(twenty), true), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("attack each other"), "{err}");
    // No file here at all: the size still tells.
    let far: Vec<String> = forge(serde_json::json!([0, 1, 2]), false)
        .iter()
        .map(|l| with(l, "file", serde_json::json!("elsewhere/knights8.toml")))
        .collect();
    let (code, _, err) = merge_lines(&far, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("it has 3 pieces, not 20"), "{err}");
}

#[test]
fn a_plan_of_another_part_count_or_with_a_part_twice_is_refused() {
    let dir = temp_dir("plan-n");
    let results = dir.join("R");
    let (code, _, err) = run_cli(&[
        "plan",
        &puzzle("queens8.toml"),
        "--size",
        "10",
        "--goal",
        "count",
        "--parts",
        "4",
        "--slurm",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let plan_path = results.join("plan.json");
    let plan = std::fs::read_to_string(&plan_path).unwrap();
    let mut ten = records(
        &puzzle("queens8.toml"),
        &["--size", "10", "--goal", "count", "--strategy", "bitmask"],
        &["1/4"],
    );
    std::fs::write(results.join("part-1.jsonl"), ten.remove(0)).unwrap();
    let set_units = |units: serde_json::Value| {
        let mut p: serde_json::Value = serde_json::from_str(&plan).unwrap();
        p["units"] = units;
        std::fs::write(&plan_path, serde_json::to_string(&p).unwrap()).unwrap();
    };
    set_units(serde_json::json!(["1/5", "2/5", "3/5", "4/5", "5/5"]));
    let (code, _, err) = run_cli(&["merge", "--missing", results.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is of 5 parts"), "{err}");
    set_units(serde_json::json!(["1/4", "2/4", "2/4", "4/4"]));
    let (code, _, err) = run_cli(&["merge", "--missing", results.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("a part listed twice"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One run's record read twice (the same line twice, a file named twice or by its folder as
/// well) is refused naming both places; a part run again, a record of its own, is taken
/// and counted once.
#[test]
fn a_record_read_twice_is_refused() {
    let lines = queens12();
    let (code, _, err) = merge_lines(&[&lines[..], &lines[1..2]].concat(), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("<stdin>:5: the same record as at <stdin>:2, field for field"),
        "{err}"
    );
    let dir = std::env::temp_dir().join(format!("boardsolve-twice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::fs::write(&a, lines[..2].join("\n") + "\n").unwrap();
    std::fs::write(&b, lines[2..].join("\n") + "\n").unwrap();
    let (a, b, d) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        dir.to_str().unwrap(),
    );
    let (code, out, err) = run_cli(&["merge", a, b]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("14,200 solutions"), "{out}");
    for (args, says) in [
        (vec!["merge", a, b, a], format!("{a}: named twice")),
        (vec!["merge", d, b], format!("{b}: named twice")),
        (
            vec!["merge", a, b, &format!("{d}/./a.jsonl")],
            format!("{d}/./a.jsonl: the same file as {a}"),
        ),
    ] {
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(&says), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The same part run again: its own record, taken.
    let again = records(
        &puzzle("queens8.toml"),
        &["--size", "12", "--goal", "count", "--strategy", "bitmask"],
        &["2/4"],
    );
    let (code, out, err) = merge_lines(&[&lines[..], &again[..]].concat(), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("14,200 solutions"), "{out}");
}

/// The top-level keys of a pretty-printed JSON report, in the order written.
fn keys_in_order(report: &str) -> Vec<String> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("  \""))
        .filter_map(|l| l.split_once("\":").map(|(k, _)| k.to_string()))
        .collect()
}

/// `solve merge --format json` writes a whole run's fields in a whole run's order, the board
/// among them, then `merge`; the values a whole run has, it has too.
#[test]
fn merged_json_has_a_whole_runs_fields_in_its_order() {
    let queens = puzzle("queens8.toml");
    let knights = puzzle("knights8.toml");
    let cases: [(&str, &[&str], &[&str]); 2] = [
        (
            &queens,
            &["--size", "12", "--goal", "count", "--strategy", "bitmask"],
            &["1/4", "2/4", "3/4", "4/4"],
        ),
        (
            &knights,
            &["--size", "10", "--strategy", "bnb"],
            &["1/2", "2/2"],
        ),
    ];
    for (file, args, parts) in cases {
        let mut whole_args = vec![file, "--format", "json", "--quiet"];
        whole_args.extend(args);
        let (code, whole, err) = run_cli(&whole_args);
        assert_eq!(code, 0, "{err}");
        let (code, merged, err) = merge_lines(&records(file, args, parts), &["--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let mut keys = keys_in_order(&merged);
        assert_eq!(keys.pop().as_deref(), Some("merge"), "{merged}");
        assert_eq!(keys, keys_in_order(&whole), "{merged}\n{whole}");
        let (w, m): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(&whole).unwrap(),
            serde_json::from_str(&merged).unwrap(),
        );
        for key in [
            "board", "count", "optimum", "goal", "kind", "title", "status", "proven",
        ] {
            assert_eq!(w[key], m[key], "{key}: {merged}\n{whole}");
        }
        assert_eq!(w["stats"]["solutions"], m["stats"]["solutions"], "{merged}");
        assert_eq!(
            w["solutions"].as_array().map(Vec::len),
            m["solutions"].as_array().map(Vec::len),
            "{merged}"
        );
    }
}

/// A count of the largest placements in parts: each record says its part's largest size,
/// holds a placement of it and counts at least that one; records that do not fit, or that
/// count one size where the puzzle counts the largest, are refused, never merged into a
/// wrong total.
#[test]
fn merge_refuses_forged_counts_of_the_largest() {
    let lines = records(
        &puzzle("knights-max.toml"),
        &["--size", "5", "--goal", "count", "--strategy", "bitmask"],
        &["1/3", "2/3", "3/3"],
    );
    let (code, out, err) = merge_lines(&lines, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 solution of optimum 13 (proven)"), "{out}");
    let at = lines
        .iter()
        .position(|l| field(l, "none_below") == 13)
        .expect("a part holds the largest");
    let forged = |k: usize, key: &str, value: serde_json::Value| {
        let mut v = lines.clone();
        v[k] = with(&v[k], key, value);
        v
    };
    let refused = |lines: &[String], words: &[&str]| {
        let (code, out, err) = merge_lines(lines, &[]);
        assert_eq!(code, 2, "{out}{err}");
        for w in words {
            assert!(err.contains(w), "{w}: {err}");
        }
    };
    // A size without its placement, a placement of another size, none counted at a size.
    refused(&forged(at, "none_below", 14.into()), &["\"best\""]);
    let mut bigger = forged(at, "best", 14.into());
    bigger[at] = with(&bigger[at], "none_below", 14.into());
    refused(&bigger, &["\"best\": 14 with a placement of 13 pieces"]);
    refused(&forged(at, "count", "0".into()), &["\"count\""]);
    // One part counting one size beside parts counting their largest.
    refused(
        &forged(at, "none_below", serde_json::Value::Null),
        &["a count of placements of one size"],
    );
    // Every part counting one size, of a puzzle that counts the largest.
    let plain: Vec<String> = lines
        .iter()
        .map(|l| with(l, "none_below", serde_json::Value::Null))
        .collect();
    refused(&plain, &["this puzzle counts the largest placements"]);
    // A count at a given optimum (a bar) says no largest of its own.
    let barred: Vec<String> = lines
        .iter()
        .map(|l| {
            let mut list = field(l, "list");
            list["bar"] = 13.into();
            with(l, "list", list)
        })
        .collect();
    refused(&barred, &["a count at a given optimum"]);
}

/// A finished part run again and stopped (a limit, Ctrl-C) keeps its finished record: an
/// unfinished one over it would send a part already counted back to the list to run. An
/// unfinished record is replaced by the run that finishes, and by another unfinished one.
#[test]
fn a_finished_record_outlasts_a_stopped_run_of_the_same_part() {
    let dir = temp_dir("kept");
    let path = dir.join("part-2.jsonl");
    let file = puzzle("queens8.toml");
    let run = |extra: &[&str]| {
        let mut a = vec![
            file.as_str(),
            "--size",
            "12",
            "--goal",
            "count",
            "--strategy",
            "bitmask",
            "--part",
            "2/4",
            "--record",
            path.to_str().unwrap(),
        ];
        a.extend(extra);
        let (code, _, err) = run_cli(&a);
        (code, err, std::fs::read_to_string(&path).unwrap())
    };
    let (code, _, finished) = run(&[]);
    assert_eq!(code, 0);
    assert_eq!(field(&finished, "finished"), true);
    let (code, err, kept) = run(&["--node-limit", "10"]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(kept, finished, "the finished record was replaced");
    assert!(
        err.contains("kept the finished record of part 2/4"),
        "{err}"
    );
    // Of another part, or once nothing finished is there, the stopped run's record is
    // written.
    std::fs::write(&path, finished.replace("\"part\":[2,4]", "\"part\":[3,4]")).unwrap();
    let (_, err, stopped) = run(&["--node-limit", "10"]);
    assert_eq!(field(&stopped, "finished"), false, "{err}");
    assert!(!err.contains("kept the finished"), "{err}");
    assert!(
        err.contains("replaced a finished record of part 3/4"),
        "{err}"
    );
    let (_, _, again) = run(&["--node-limit", "20"]);
    assert_eq!(field(&again, "finished"), false);
    assert_ne!(again, stopped);
    let (code, _, done) = run(&[]);
    assert_eq!(code, 0);
    assert_eq!(field(&done, "count"), field(&finished, "count"));
    // A finished record that merge would refuse beside the stopped run's is not kept: the
    // part goes back on the list to run. Damaged, twice in the file, or of another list.
    for (label, bad) in [
        ("damaged", finished.replace("\"taken\":1", "\"taken\":67")),
        ("twice", format!("{finished}{finished}")),
        ("beside a damaged line", format!("{finished}garbage\n")),
        (
            "of other arguments",
            finished.replace("\"--size\",\"12\"", "\"--size\",\"13\""),
        ),
        (
            "another list",
            finished.replace(
                &field(&finished, "list")["fingerprint"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                "0123456789abcdef",
            ),
        ),
    ] {
        assert_ne!(bad, finished, "{label}");
        std::fs::write(&path, &bad).unwrap();
        let (code, err, now) = run(&["--node-limit", "10"]);
        assert_eq!(code, 3, "{label}: {err}");
        assert_eq!(field(&now, "finished"), false, "{label}: {err}");
        assert!(
            err.contains("replaced a finished record of part 2/4"),
            "{label}: {err}"
        );
    }
    // The output opened first would empty the record file: refused before the search.
    std::fs::write(&path, &finished).unwrap();
    let (code, err, kept) = run(&["--output", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is the --record file"), "{err}");
    assert_eq!(kept, finished);
    let _ = std::fs::remove_dir_all(&dir);
}
