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
            "name another puzzle",
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
    let _ = std::fs::remove_dir_all(&dir);
}
