//! Parts run apart and merged: records (`--record`, `--format json`), `solve merge` with its
//! exit codes and its refusals, `solve plan`, and the two 20x20 proofs in proofs/.

use super::{puzzle, run_cli, run_cli_in_scratch};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("boardsolve-parts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The answer line of a run: the line before the end of standard output.
fn answer_line(out: &str) -> String {
    out.lines().last().unwrap_or("").to_string()
}

/// Knights domination on 12x12 in `n` parts, each writing its record into `dir`.
fn run_parts(dir: &std::path::Path, n: usize) -> Vec<String> {
    let file = puzzle("knights8.toml");
    (1..=n)
        .map(|i| {
            let path = dir.join(format!("part-{i}.jsonl"));
            let part = format!("{i}/{n}");
            let (code, out, err) = run_cli(&[
                &file,
                "--size",
                "12",
                "--part",
                &part,
                "--record",
                path.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "part {part}: {err}");
            assert!(
                answer_line(&out).contains(&format!("[part {part}:")),
                "{out}"
            );
            path.to_string_lossy().into_owned()
        })
        .collect()
}

fn merge(files: &[&str]) -> (i32, String, String) {
    let mut args = vec!["merge"];
    args.extend(files);
    run_cli(&args)
}

#[test]
fn merged_parts_give_the_single_runs_answer() {
    let dir = temp_dir("whole");
    let files = run_parts(&dir, 4);
    let (code, single, _) = run_cli(&[&puzzle("knights8.toml"), "--size", "12"]);
    assert_eq!(code, 0);
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let (code, out, err) = merge(&refs);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&out), answer_line(&single));
    assert_eq!(answer_line(&out), "optimum 24 (proven)");
    // The placement is drawn as the run draws it: the puzzle file is at hand.
    assert_eq!(out.matches('K').count(), 24, "{out}");
    assert!(err.contains("merged 4 records of 4 parts"), "{err}");
    // Concatenated on standard input, in any order, the same.
    let all: String = files
        .iter()
        .rev()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let (code, out, _) = super::run_cli_with(&["merge", "-"], Some(&all));
    assert_eq!((code, answer_line(&out)), (0, "optimum 24 (proven)".into()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_part_leaves_the_merge_incomplete_with_its_command() {
    let dir = temp_dir("missing");
    let files = run_parts(&dir, 4);
    std::fs::remove_file(&files[2]).unwrap();
    let refs: Vec<&str> = [0, 1, 3].iter().map(|&k| files[k].as_str()).collect();
    let (code, out, _) = merge(&refs);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("optimum 24 (best found, not proven) [3 of 4 parts searched; 1 part to run]"),
        "{out}"
    );
    let command = out.lines().last().unwrap();
    assert!(command.contains("--part 3/4 --record"), "{command}");
    assert!(command.contains("part-3.jsonl"), "{command}");
    // The command it names runs the missing part where the others are.
    let words: Vec<&str> = command.split(' ').collect();
    let status = std::process::Command::new(words[0])
        .args(&words[1..])
        .output()
        .unwrap();
    assert!(status.status.success());
    let (code, out, _) = merge(&files.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!((code, answer_line(&out)), (0, "optimum 24 (proven)".into()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_part_in_json_is_one_record_line() {
    let (code, out, _) = run_cli(&[
        &puzzle("knights8.toml"),
        "--size",
        "12",
        "--part",
        "2/3",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["record"], "solve-part");
    assert_eq!(v["part"], serde_json::json!([2, 3]));
    assert_eq!(v["finished"], true);
    assert_eq!(v["none_below"], 24);
    assert_eq!(v["strategy"], "bnb");
    assert_eq!(v["list"]["fingerprint"].as_str().unwrap().len(), 16);
    assert_eq!(v["args"], serde_json::json!(["--size", "12"]));
}

#[test]
fn record_needs_a_part() {
    let (code, _, err) = run_cli(&[&puzzle("queens8.toml"), "--record", "x.jsonl"]);
    assert_eq!(code, 2);
    assert!(err.contains("--record: accepted with --part"), "{err}");
}

/// A part stopped by a limit writes a record that says so, and merge does not count it.
#[test]
fn a_stopped_part_is_not_counted() {
    let dir = temp_dir("stopped");
    let files = run_parts(&dir, 2);
    let stopped = dir.join("stopped.jsonl");
    let (code, _, _) = run_cli(&[
        &puzzle("knights8.toml"),
        "--size",
        "12",
        "--part",
        "2/2",
        "--node-limit",
        "1",
        "--record",
        stopped.to_str().unwrap(),
    ]);
    assert_eq!(code, 3);
    let line = std::fs::read_to_string(&stopped).unwrap();
    assert!(line.contains("\"finished\":false"), "{line}");
    let (code, out, err) = merge(&[&files[0], stopped.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}");
    assert!(
        err.contains("part 2/2 stopped by its node limit before its end: not counted"),
        "{err}"
    );
    assert!(out.contains("--part 2/2"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Records that do not belong together, or are broken, are refused with the file and line.
#[test]
fn bad_records_are_refused_with_file_and_line() {
    let dir = temp_dir("bad");
    let files = run_parts(&dir, 2);
    let good = std::fs::read_to_string(&files[0]).unwrap();
    let second = std::fs::read_to_string(&files[1]).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let cut = write(
        "cut.jsonl",
        &format!("{good}{}", &second[..second.len() / 2]),
    );
    let other = {
        let (_, out, _) = run_cli(&[
            &puzzle("knights8.toml"),
            "--size",
            "11",
            "--part",
            "2/2",
            "--format",
            "json",
        ]);
        write("other.jsonl", &format!("{good}{out}"))
    };
    let scheme = write(
        "scheme.jsonl",
        &format!("{good}{}", second.replace("\"scheme\":2,", "")),
    );
    let range = write(
        "range.jsonl",
        &format!(
            "{good}{}",
            second.replace("\"part\":[2,2]", "\"part\":[3,2]")
        ),
    );
    let disagree = write(
        "disagree.jsonl",
        &format!(
            "{good}{second}{}",
            second.replace("\"none_below\":24", "\"none_below\":23")
        ),
    );
    let cases: [(&str, &str); 5] = [
        (&cut, "cut.jsonl:2: not a part record"),
        (
            &other,
            "other.jsonl:2: this record is of another puzzle than the record at",
        ),
        (&scheme, "scheme.jsonl:2: a record of fingerprint scheme 1"),
        (&range, "range.jsonl:2: part 3 of 2: accepted: 1 to 2"),
        (
            &disagree,
            "disagree.jsonl:3: part 2/2 says none better than 23, but the same part at",
        ),
    ];
    for (file, want) in cases {
        let (code, out, err) = merge(&[file]);
        assert_eq!(code, 2, "{file}: {out}");
        assert!(err.contains(want), "{file}: {err}");
    }
    // Records of two puzzles say what differs between them, not only their hashes.
    let (_, _, err) = merge(&[&other]);
    assert!(
        err.contains("knights8.toml --size 11 --part 2/2")
            || err.contains("knights8.toml --size 11`"),
        "{err}"
    );
    assert!(err.contains("knights8.toml --size 12"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plan_prints_a_command_per_part_and_a_slurm_array() {
    let file = puzzle("knights8.toml");
    let (code, out, err) = run_cli_in_scratch(&[
        "plan",
        &file,
        "--size",
        "12",
        "--parts",
        "5",
        "--results",
        "r",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (k, l) in lines.iter().enumerate() {
        let i = k + 1;
        assert!(
            l.ends_with(&format!(
                "--size 12 --strategy bnb --part {i}/5 --record r/part-{i}.jsonl"
            )),
            "{l}"
        );
    }
    let (code, out, _) =
        run_cli_in_scratch(&["plan", &file, "--size", "12", "--parts", "5", "--slurm"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("#!/bin/bash\n"), "{out}");
    assert!(out.contains("#SBATCH --array=1-5\n"), "{out}");
    assert!(
        out.contains("--part \"$i/5\" --record results/part-\"$i\".jsonl"),
        "{out}"
    );
    let (code, _, err) = run_cli_in_scratch(&["plan", &file, "--parts", "0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'0' for '--parts <N>': accepted: a whole number, 1 to 100000"),
        "{err}"
    );
}

/// A part run again from its plan runs under the same memory budget as the others.
#[test]
fn plan_commands_carry_the_memory_budget() {
    let file = puzzle("knights8.toml");
    let (code, out, err) = run_cli_in_scratch(&["plan", &file, "--parts", "2", "--memory", "2G"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.contains(" --memory 2G ")).count(),
        2,
        "{out}"
    );
}

/// The proofs in proofs/, each from its records: the two 20x20 dominations, 62 plain and 63
/// independent, and the N = 21 queens count (A000170) in 64 parts.
#[test]
fn the_proofs_merge_to_their_answers() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (file, want) in [
        ("knights20-plain.jsonl", "optimum 62 (proven)"),
        ("knights20-independent.jsonl", "optimum 63 (proven)"),
        ("queens21.jsonl", "314,666,222,712 solutions"),
    ] {
        let path = format!("{root}/proofs/{file}");
        let (code, out, err) = merge(&[&path]);
        assert_eq!(code, 0, "{file}: {err}");
        assert_eq!(answer_line(&out), want, "{file}");
    }
}

/// The 8x8 open tours' proof in parts, as far as it has run: its records merge to a lower
/// bound and the commands of the parts still to run (exit 3), the list of the build's plan.
#[test]
fn the_open_eight_by_eight_records_merge_to_a_partial_sum() {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/proofs/tours8-open.jsonl");
    let (code, out, err) = merge(&[&path]);
    assert_eq!(code, 3, "{err}");
    let records = std::fs::read_to_string(&path).unwrap().lines().count();
    assert!(
        out.contains(&format!("[{records} of 136 parts searched;")),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains(" --part ")).count(),
        136 - records
    );
    // A part of this build's list, stopped at once, merges with them: the list is the same.
    let dir = temp_dir("tours8");
    let stopped = dir.join("stopped.jsonl");
    let (code, _, err) = run_cli(&[
        &puzzle("tour5x5.toml"),
        "--size",
        "8",
        "--strategy",
        "count",
        "--part",
        "1/136",
        "--time-limit",
        "0.5",
        "--record",
        stopped.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    let (code, again, err) = merge(&[&path, stopped.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    let sum = |o: &str| {
        o.lines()
            .find(|l| l.starts_with("at least "))
            .map(str::to_string)
    };
    assert!(sum(&out).is_some(), "{out}");
    assert_eq!(sum(&again), sum(&out));
}

/// Domination goal count in parts: the optimum, found first, is the parts' input; their
/// counts add up to one run's, and merge says so.
#[test]
fn domination_counts_in_parts_at_a_given_optimum() {
    for (size, extra, optimum, count) in [
        ("8", None, "14", 16u64),
        ("7", Some("rules.independent=false"), "10", 0),
    ] {
        let file = puzzle("knights8.toml");
        let mut base = vec![file.as_str(), "--size", size, "--goal", "count", "--quiet"];
        if let Some(e) = extra {
            base.extend(["--set", e]);
        }
        let (code, out, err) = run_cli(&base);
        assert!(code == 0 || code == 1, "{err}");
        let single = answer_line(&out);
        let want = if count == 0 {
            // Counted rather than assumed: the single run says how many.
            single.split(' ').next().unwrap().parse::<u64>().unwrap()
        } else {
            assert!(
                single.starts_with(&format!("{count} solutions of optimum {optimum}")),
                "{single}"
            );
            count
        };
        for n in [1, 2, 5] {
            let mut sum = 0;
            for i in 1..=n {
                let part = format!("{i}/{n}");
                let mut args = base.clone();
                args.extend(["--part", &part, "--optimum", optimum, "--format", "json"]);
                let (code, out, err) = run_cli(&args);
                assert_eq!(code, 0, "{err}");
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert_eq!(v["finished"], true);
                assert_eq!(v["list"]["bar"], optimum.parse::<u64>().unwrap());
                sum += v["count"].as_str().unwrap().parse::<u64>().unwrap();
            }
            assert_eq!(sum, want, "size {size} in {n} parts");
        }
    }
    // The optimum is an input only of split counts, and a split count needs it.
    let file = puzzle("knights8.toml");
    let (code, _, err) = run_cli(&[&file, "--goal", "count", "--part", "1/2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--optimum K"), "{err}");
    let (code, _, err) = run_cli(&[&file, "--optimum", "14"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--optimum: accepted with goal count and --part"),
        "{err}"
    );
}

/// Goal maximize in parts (independent bitmask): each part proves none larger than its own
/// best, and merge takes the largest, as one run finds it.
#[test]
fn maximize_in_parts_merges_to_the_single_runs_optimum() {
    let dir = temp_dir("maximize");
    let file = puzzle("knights-max.toml");
    for size in ["5", "6"] {
        let (code, single, _) = run_cli(&[&file, "--size", size, "--quiet"]);
        assert_eq!(code, 0);
        let mut files = Vec::new();
        for i in 1..=3 {
            let path = dir.join(format!("max-{size}-{i}.jsonl"));
            let part = format!("{i}/3");
            let (code, out, err) = run_cli(&[
                &file,
                "--size",
                size,
                "--strategy",
                "bitmask",
                "--part",
                &part,
                "--record",
                path.to_str().unwrap(),
                "--quiet",
            ]);
            assert_eq!(code, 0, "{err}");
            assert!(out.contains("searched: none larger than"), "{out}");
            files.push(path.to_string_lossy().into_owned());
        }
        let (code, out, err) = merge(&files.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{err}");
        assert_eq!(answer_line(&out), answer_line(&single), "size {size}");
        // The placement drawn is one of the best, as many pieces as the optimum says.
        let n: usize = answer_line(&out)
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(out.matches('N').count(), n, "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Goal count without `rules.count`, in parts: each part finds its own largest size and
/// counts its placements of it; merge takes the largest of the sizes and adds the counts of
/// the parts that reach it, giving one run's optimum and count, whole parts or subparts.
#[test]
fn largest_counts_merge_from_plan_parts_to_the_single_runs_answer() {
    let dir = temp_dir("largest");
    let kings = dir.join("kings.toml");
    std::fs::write(
        &kings,
        "kind = \"independent\"\n[board]\nsize = 6\n[piece]\nmoves = \"K\"\nsymbol = \"K\"\n",
    )
    .unwrap();
    let knights = puzzle("knights-max.toml");
    let cases: [(&str, &[&str], &str); 2] = [
        (
            kings.to_str().unwrap(),
            &[],
            "3,600 solutions of optimum 9 (proven)",
        ),
        (
            &knights,
            &["--size", "5"],
            "1 solution of optimum 13 (proven)",
        ),
    ];
    for (file, size, want) in cases {
        let mut whole = vec![file, "--goal", "count", "--quiet"];
        whole.extend(size);
        let (code, single, err) = run_cli(&whole);
        assert_eq!(code, 0, "{err}");
        assert_eq!(answer_line(&single), want);
        for n in 2..=4 {
            let units: Vec<String> = (1..=n)
                .map(|i| format!("{i}/{n}"))
                .chain(
                    (n == 3)
                        .then(|| (1..=2).map(|j| format!("2/3,{j}/2")))
                        .into_iter()
                        .flatten(),
                )
                .collect();
            let mut files = Vec::new();
            let mut sizes = Vec::new();
            for (k, unit) in units.iter().enumerate() {
                let path = dir.join(format!("{}-{n}-{k}.jsonl", size.len()));
                let mut args = whole.clone();
                args.extend(["--strategy", "bitmask", "--part", unit]);
                args.extend(["--record", path.to_str().unwrap()]);
                let (code, _, err) = run_cli(&args);
                assert_eq!(code, 0, "{unit}: {err}");
                let line = std::fs::read_to_string(&path).unwrap();
                let r: serde_json::Value = serde_json::from_str(&line).unwrap();
                sizes.push(r["none_below"].as_u64().unwrap());
                files.push(path.to_string_lossy().into_owned());
            }
            let (code, out, err) = merge(&files.iter().map(String::as_str).collect::<Vec<_>>());
            assert_eq!(code, 0, "{n} parts: {err}");
            assert_eq!(answer_line(&out), want, "{n} parts: {sizes:?}");
            if size.is_empty() {
                continue;
            }
            // The one largest knights placement lies in one part: the others count their
            // own, smaller, largest, which the merge leaves out.
            assert!(sizes.iter().any(|&s| s < 13), "{sizes:?}");
        }
    }
    // Through `solve plan`: its commands, run, and the folder merged.
    let (code, plan, err) = run_cli_in_scratch(&[
        "plan",
        kings.to_str().unwrap(),
        "--goal",
        "count",
        "--parts",
        "3",
        "--results",
        dir.join("planned").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    for line in plan.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split(' ').skip(1).collect();
        let (code, _, err) = run_cli(&words);
        assert_eq!(code, 0, "{line}: {err}");
    }
    let (code, out, err) = merge(&[dir.join("planned").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&out), "3,600 solutions of optimum 9 (proven)");
    let _ = std::fs::remove_dir_all(&dir);
}
