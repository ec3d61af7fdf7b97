//! What `solve plan` and `--record` write: commands no path can break apart, record files
//! written whole through no link or device, the plan's manifest, the order and number of
//! its units, the strategy its parts get, the Slurm script's time and program path, and
//! plans of one part's subparts.

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use boardsolve::engine::record::{FINGERPRINT_SCHEME, PLAN_TAG, PartRecord, PlanRecord};

use super::{puzzle, run_cli};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardsolve-plan-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn solve_binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("solve")
}

fn text(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// A script run by `shell` in `dir` (with `env`); its exit status and output.
fn run_script(shell: &str, dir: &Path, script: &str, env: &[(&str, &str)]) -> (i32, String) {
    let out = Command::new(shell)
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The commands of a plan, as docs/parts.md runs them without GNU Parallel.
fn run_with_xargs(dir: &Path, commands: &str) -> (i32, String) {
    let list = dir.join("commands.txt");
    fs::write(&list, commands).unwrap();
    let script = format!("xargs -d '\\n' -n 1 -P 2 sh -c < {}", text(&list));
    run_script("sh", dir, &script, &[])
}

fn part_of(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "--part").expect("a --part");
    words[at + 1].to_string()
}

fn read_plan(dir: &Path) -> PlanRecord {
    let text = fs::read_to_string(dir.join("plan.json")).expect("the plan's manifest");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn read_record(path: &Path) -> PartRecord {
    let text = fs::read_to_string(path).unwrap();
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn plan_refuses_control_characters_in_what_goes_into_commands() {
    let dir = temp_dir("control");
    let evil = dir.join("x\ntouch PWNED");
    fs::copy(puzzle("knights8.toml"), &evil).unwrap();
    let evil = text(&evil);
    let results = text(&dir.join("results"));
    for slurm in [false, true] {
        let mut args = vec!["plan", evil.as_str(), "--parts", "2", "--results", &results];
        if slurm {
            args.push("--slurm");
        }
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 2, "slurm {slurm}: {out}{err}");
        assert!(err.contains("the puzzle file"), "{err}");
        assert!(err.contains("control character"), "{err}");
        assert!(out.is_empty(), "{out}");
        // The output, if any, run as the documentation runs it: nothing gets out.
        if slurm {
            run_script("bash", &dir, &out, &[("SLURM_ARRAY_TASK_ID", "1")]);
        } else {
            run_with_xargs(&dir, &out);
        }
        assert!(!dir.join("PWNED").exists());
    }
    let file = puzzle("knights8.toml");
    let tab = format!("{results}\tx");
    let (code, _, err) = run_cli(&["plan", &file, "--parts", "2", "--results", &tab]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--results") && err.contains("control character"),
        "{err}"
    );
    let (code, _, err) = run_cli(&[
        "plan",
        &file,
        "--parts",
        "2",
        "--results",
        &results,
        "--set",
        "title=\"a\rb\"",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the argument") && err.contains("control character"),
        "{err}"
    );
    // The program's own path goes into every command too.
    let bin = dir.join("bin\nx");
    fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(solve_binary(), bin.join("solve")).unwrap();
    let out = Command::new(bin.join("solve"))
        .args(["plan", &file, "--parts", "2", "--results", &results])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the program's path") && err.contains("control character"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn slurm_script_lines_hold_no_unquoted_path() {
    let dir = temp_dir("slurm-words");
    let odd = dir.join("a b;touch PWNED $(touch PWNED2).toml");
    fs::copy(puzzle("knights8.toml"), &odd).unwrap();
    let results = text(&dir.join("res ults"));
    let (code, script, err) = run_cli(&[
        "plan",
        &text(&odd),
        "--size",
        "8",
        "--parts",
        "2",
        "--results",
        &results,
        "--slurm",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        script.contains("#SBATCH --job-name=solve-a_b_touch_PWNED___touch_PWNED2_\n"),
        "{script}"
    );
    // Every task of the script runs, and only the parts run.
    for task in ["1", "2"] {
        let (code, out) = run_script(
            "bash",
            &dir,
            &script,
            &[("SLURM_ARRAY_TASK_ID", task), ("SLURM_CPUS_PER_TASK", "1")],
        );
        assert_eq!(code, 0, "task {task}: {out}");
    }
    assert!(!dir.join("PWNED").exists() && !dir.join("PWNED2").exists());
    let (code, out, err) = run_cli(&["merge", &results]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn record_refuses_a_planted_link_and_leaves_its_target_untouched() {
    let dir = temp_dir("link");
    let victim = dir.join("victim");
    fs::write(&victim, "secret\n").unwrap();
    let record = dir.join("part-1.jsonl");
    std::os::unix::fs::symlink(&victim, &record).unwrap();
    let (code, out, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--goal",
        "count",
        "--part",
        "1/2",
        "--record",
        &text(&record),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--record") && err.contains("a symbolic link"),
        "{err}"
    );
    // Refused before the search: no answer printed.
    assert!(out.is_empty(), "{out}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "secret\n");
    assert!(
        fs::symlink_metadata(&record)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn record_refuses_folders_and_fifos() {
    let dir = temp_dir("special");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for (target, what) in [(dir.clone(), "a folder"), (fifo.clone(), "a fifo")] {
        let (code, out, err) = run_cli(&[
            &puzzle("queens8.toml"),
            "--goal",
            "count",
            "--part",
            "1/2",
            "--record",
            &text(&target),
        ]);
        assert_eq!(code, 2, "{what}: {out}{err}");
        assert!(
            err.contains(&format!("--record {}: {what}", text(&target))),
            "{err}"
        );
        assert!(out.is_empty(), "{out}");
    }
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn record_writes_leave_no_temporary_files_and_remove_stale_ones() {
    let dir = temp_dir("stale");
    let record = dir.join("part-1.jsonl");
    let stale = dir.join(".part-1.jsonl.4242.1700000000000000000.tmp");
    let fresh = dir.join(".part-1.jsonl.4243.1700000000000000001.tmp");
    let other = dir.join(".part-2.jsonl.4242.1700000000000000000.tmp");
    for f in [&stale, &fresh, &other] {
        fs::write(f, "{\"record\":\"solve-part\"").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for f in [&stale, &other] {
        fs::File::options()
            .write(true)
            .open(f)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    // Written twice: the second replaces the first.
    for _ in 0..2 {
        let (code, out, err) = run_cli(&[
            &puzzle("queens8.toml"),
            "--goal",
            "count",
            "--part",
            "1/2",
            "--record",
            &text(&record),
        ]);
        assert_eq!(code, 0, "{out}{err}");
    }
    let r = read_record(&record);
    assert_eq!((r.part, r.finished), ([1, 2], true));
    assert!(
        !stale.exists(),
        "a stale temporary file of the record stays"
    );
    // A recent one may be another writer's; another record's is not this write's.
    assert!(fresh.exists() && other.exists());
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".part-1.jsonl.4243.1700000000000000001.tmp",
            ".part-2.jsonl.4242.1700000000000000000.tmp",
            "part-1.jsonl"
        ]
    );
    let _ = fs::remove_dir_all(&dir);
}

/// The plain plan's commands and the parts' records.
fn plan_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| !l.trim().is_empty()).collect()
}

#[test]
fn plan_writes_its_manifest_beside_the_records() {
    let dir = temp_dir("manifest");
    let results = dir.join("new").join("results");
    let file = puzzle("knights8.toml");
    let (code, out, err) = run_cli(&[
        "plan",
        &file,
        "--size",
        "8",
        "--parts",
        "3",
        "--threads",
        "1",
        "--results",
        &text(&results),
    ]);
    assert_eq!(code, 0, "{err}");
    let plan = read_plan(&results);
    assert_eq!(plan.record, PLAN_TAG);
    assert_eq!(plan.scheme, FINGERPRINT_SCHEME);
    assert_eq!(plan.file, file);
    assert_eq!(plan.strategy, "bnb");
    assert_eq!(
        plan.args,
        ["--size", "8", "--threads", "1", "--strategy", "bnb"]
    );
    assert_eq!(plan.results, text(&results));
    assert!(!plan.slurm);
    let lines = plan_lines(&out);
    let units: Vec<String> = lines.iter().map(|l| part_of(l)).collect();
    assert_eq!(plan.units, units);
    assert_eq!(units, ["1/3", "2/3", "3/3"]);
    // The parts' records are of the plan's puzzle and strategy.
    let (code, log) = run_with_xargs(&dir, &out);
    assert_eq!(code, 0, "{log}");
    for k in 1..=3 {
        let r = read_record(&results.join(format!("part-{k}.jsonl")));
        assert_eq!((&r.puzzle, &r.strategy), (&plan.puzzle, &plan.strategy));
        let (mut theirs, mut ours) = (r.args.clone(), plan.args.clone());
        theirs.sort();
        ours.sort();
        assert_eq!(theirs, ours);
    }
    // A Slurm plan says so, and its units are its array tasks in order.
    let (code, _, err) = run_cli(&[
        "plan",
        &file,
        "--size",
        "8",
        "--parts",
        "3",
        "--results",
        &text(&results),
        "--slurm",
    ]);
    assert_eq!(code, 0, "{err}");
    let plan = read_plan(&results);
    assert!(plan.slurm);
    assert_eq!(plan.units, ["1/3", "2/3", "3/3"]);
    assert_eq!(plan.args, ["--size", "8", "--strategy", "bnb"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn plan_estimate_orders_the_parts_alike_every_time() {
    let dir = temp_dir("estimate");
    let results = text(&dir.join("results"));
    let plan = || {
        let (code, out, err) = run_cli(&[
            "plan",
            &puzzle("knights8.toml"),
            "--size",
            "13",
            "--parts",
            "8",
            "--estimate",
            "300",
            "--results",
            &results,
        ]);
        assert_eq!(code, 0, "{err}");
        let lines = plan_lines(&out);
        assert_eq!(lines.len(), 8, "{out}");
        assert!(
            lines.iter().all(|l| l.contains("  # about ")),
            "the time estimate in each comment: {out}"
        );
        lines.iter().map(|l| part_of(l)).collect::<Vec<String>>()
    };
    let first = plan();
    for _ in 0..3 {
        assert_eq!(plan(), first);
    }
    let mut sorted = first.clone();
    sorted.sort();
    assert_ne!(first, sorted, "ordered by size, not by number: {first:?}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn plan_caps_the_parts_at_the_lists_length() {
    let dir = temp_dir("cap");
    let results = text(&dir.join("results"));
    let (code, out, err) = run_cli(&[
        "plan",
        &puzzle("queens8.toml"),
        "--goal",
        "count",
        "--parts",
        "5000",
        "--results",
        &results,
    ]);
    assert_eq!(code, 0, "{err}");
    let lines = plan_lines(&out);
    let k = lines.len();
    assert!(k > 1 && k < 5000, "{k} parts");
    assert!(
        err.contains(&format!(
            "the search splits into {k} subtrees; planning {k} parts"
        )),
        "{err}"
    );
    assert_eq!(part_of(lines[k - 1]), format!("{k}/{k}"));
    // The last part has a subtree of its own, and the parts count the 92 solutions.
    let (code, log) = run_with_xargs(&dir, &out);
    assert_eq!(code, 0, "{log}");
    let last = read_record(&dir.join("results").join(format!("part-{k}.jsonl")));
    assert!(last.taken >= 1, "{last:?}");
    let (code, merged, err) = run_cli(&["merge", &results]);
    assert_eq!(code, 0, "{err}");
    assert!(merged.contains("92 solutions"), "{merged}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn strategies_mark_parts_only_where_part_is_taken() {
    let line = |out: &str, name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name}: {out}"))
            .to_string()
    };
    // A closed tour's frontier count sweeps the board once: it applies, but not in parts;
    // an open tour's is a sweep per pair of ends, which the parts share.
    for (file, splits) in [("closed6x6-count.toml", false), ("tour5x5.toml", true)] {
        let (code, out, err) = run_cli(&["strategies", &puzzle(file)]);
        assert_eq!(code, 0, "{err}");
        let count = line(&out, "count");
        assert!(count.contains("applies (auto)"), "{count}");
        assert_eq!(count.ends_with(" [parts]"), splits, "{count}");
        assert!(line(&out, "backtrack").ends_with(" [parts]"), "{out}");
        let (code, _, err) = run_cli(&[&puzzle(file), "--part", "1/2", "--strategy", "count"]);
        assert_eq!(code, if splits { 0 } else { 2 }, "{err}");
    }
    let (_, out, _) = run_cli(&["strategies", &puzzle("queens8.toml"), "--goal", "count"]);
    assert!(line(&out, "bitmask").ends_with(" [parts]"), "{out}");
    // No goal first is split.
    let (_, out, _) = run_cli(&["strategies", &puzzle("closed16.toml")]);
    assert!(line(&out, "backtrack").contains("applies"), "{out}");
    assert!(!out.contains("[parts]"), "{out}");
}

#[test]
fn plan_says_when_its_parts_run_another_strategy_than_a_whole_run() {
    let dir = temp_dir("strategy");
    let results = text(&dir.join("results"));
    let (code, out, err) = run_cli(&[
        "plan",
        &puzzle("closed6x6-count.toml"),
        "--parts",
        "2",
        "--results",
        &results,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        plan_lines(&out)
            .iter()
            .all(|l| l.contains("--strategy backtrack")),
        "{out}"
    );
    assert!(
        err.contains("the parts run strategy backtrack: a whole run uses count"),
        "{err}"
    );
    assert!(err.contains("has no subtrees to split"), "{err}");
    // Where a whole run splits itself, nothing to say (another job: another folder).
    let other = text(&dir.join("knights"));
    let (code, _, err) = run_cli(&[
        "plan",
        &puzzle("knights8.toml"),
        "--size",
        "8",
        "--parts",
        "2",
        "--results",
        &other,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("whole run"), "{err}");
    // No strategy splits a first tour: refused.
    let (code, out, err) = run_cli(&[
        "plan",
        &puzzle("closed16.toml"),
        "--parts",
        "2",
        "--results",
        &results,
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no strategy applies"), "{err}");
    assert!(out.is_empty());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn slurm_plan_asks_for_the_parts_time_limit_and_a_margin() {
    let dir = temp_dir("time");
    let results = text(&dir.join("results"));
    let file = puzzle("knights8.toml");
    let script = |extra: &[&str]| {
        let mut args = vec![
            "plan",
            &file,
            "--parts",
            "2",
            "--slurm",
            "--results",
            &results,
        ];
        args.extend(extra);
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let out = script(&["--time-limit", "3600"]);
    assert!(out.contains("#SBATCH --time=0-01:06:00\n"), "{out}");
    assert!(out.contains(" --time-limit 3600 "), "{out}");
    let out = script(&["--time-limit", "30"]);
    assert!(out.contains("#SBATCH --time=0-00:06:00\n"), "{out}");
    let out = script(&[]);
    assert!(!out.contains("--time"), "{out}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn plan_names_the_program_by_the_path_it_was_called_by() {
    let dir = temp_dir("program");
    fs::create_dir_all(dir.join("bin")).unwrap();
    std::os::unix::fs::symlink(solve_binary(), dir.join("bin").join("solve")).unwrap();
    let file = puzzle("knights8.toml");
    let results = text(&dir.join("results"));
    let plan_by = |called: &str| {
        let out = Command::new(called)
            .args(["plan", &file, "--parts", "1", "--results", &results])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let want = format!("{}/bin/solve ", text(&dir));
    // By a relative path, made absolute: the link itself, not the build it points at.
    for called in ["./bin/solve", &format!("{}/bin/solve", text(&dir))] {
        let out = plan_by(called);
        assert!(out.starts_with(&want), "{called}: {out}");
    }
    let script = Command::new(dir.join("bin").join("solve"))
        .args([
            "plan",
            &file,
            "--parts",
            "1",
            "--slurm",
            "--results",
            &results,
        ])
        .output()
        .unwrap();
    let script = String::from_utf8_lossy(&script.stdout);
    assert!(script.contains(&format!("exec {want}")), "{script}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn subparts_of_a_part_merge_with_the_other_parts() {
    // At 13x13 every part's subtrees have descendants to share out (at 12x12 none has).
    let dir = temp_dir("subparts");
    let results = dir.join("results");
    let file = puzzle("knights8.toml");
    let job = ["--size", "13", "--threads", "1"];
    let mut args = vec!["plan", file.as_str()];
    args.extend(job);
    let r = text(&results);
    args.extend(["--parts", "4", "--results", &r]);
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    // Every part but the second, whose place three subparts take.
    let others: String = plan_lines(&out)
        .iter()
        .filter(|l| part_of(l) != "2/4")
        .map(|l| format!("{l}\n"))
        .collect();
    let (code, log) = run_with_xargs(&dir, &others);
    assert_eq!(code, 0, "{log}");
    let (code, _, _) = run_cli(&["merge", &r]);
    assert_eq!(code, 3, "part 2 still to run");
    let sub = dir.join("part-2");
    let s = text(&sub);
    let mut args = vec!["plan", file.as_str()];
    args.extend(job);
    args.extend(["--part", "2/4", "--parts", "3", "--results", &s]);
    let (code, plain, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    let units: Vec<String> = plan_lines(&plain).iter().map(|l| part_of(l)).collect();
    assert_eq!(units, ["2/4,1/3", "2/4,2/3", "2/4,3/3"]);
    assert_eq!(read_plan(&sub).units, units);
    // Run as the Slurm array of the same plan.
    args.push("--slurm");
    let (code, script, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    assert!(script.contains("#SBATCH --array=1-3\n"), "{script}");
    for task in ["1", "2", "3"] {
        let (code, log) = run_script(
            "bash",
            &dir,
            &script,
            &[("SLURM_ARRAY_TASK_ID", task), ("SLURM_CPUS_PER_TASK", "1")],
        );
        assert_eq!(code, 0, "task {task}: {log}");
    }
    for j in 1..=3 {
        let r = read_record(&sub.join(format!("part-2-{j}of3.jsonl")));
        assert_eq!(r.subpart.map(|s| s.index), Some([j, 3]));
    }
    let (code, merged, err) = run_cli(&["merge", &r, &s]);
    assert_eq!(code, 0, "{merged}{err}");
    assert!(merged.ends_with("optimum 29 (proven)\n"), "{merged}");
    // A plan of subparts takes one part, not a subpart.
    let (code, _, err) = run_cli(&["plan", &file, "--part", "2/4,1/3", "--parts", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("accepted: I/N"), "{err}");
    let _ = fs::remove_dir_all(&dir);
}

/// A plan's own words go into the commands merge writes for missing parts: a plan whose
/// arguments run another strategy or goal than its records is refused, before and after
/// any record is in.
#[test]
fn merge_refuses_a_plan_whose_arguments_run_another_search() {
    let dir = temp_dir("forged-args");
    let results = dir.join("r");
    let file = puzzle("queens8.toml");
    let (code, _, err) = run_cli(&[
        "plan",
        &file,
        "--size",
        "8",
        "--parts",
        "2",
        "--results",
        &text(&results),
    ]);
    assert_eq!(code, 0, "{err}");
    let path = results.join("plan.json");
    let plan = fs::read_to_string(&path).unwrap();
    let mut forged: PlanRecord = serde_json::from_str(&plan).unwrap();
    let strategy = forged.strategy.clone();
    assert_ne!(strategy, "backtrack");
    let at = forged.args.iter().position(|a| a == "--strategy").unwrap();
    forged.args[at + 1] = "backtrack".into();
    fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    let (code, out, err) = run_cli(&["merge", &text(&results)]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(&format!(
            "\"args\" run --strategy backtrack, but the record says {strategy}"
        )),
        "{err}"
    );
    // With a record in, a goal the records did not run is refused too.
    fs::write(&path, &plan).unwrap();
    let record = results.join("part-1.jsonl");
    let (code, _, err) = run_cli(&[
        &file,
        "--size",
        "8",
        "--part",
        "1/2",
        "--record",
        &text(&record),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut forged: PlanRecord = serde_json::from_str(&plan).unwrap();
    forged.args.extend(["--goal".into(), "first".into()]);
    fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    let (code, out, err) = run_cli(&["merge", &text(&results)]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("\"args\" run --goal first, but the record says count"),
        "{err}"
    );
    let _ = fs::remove_dir_all(&dir);
}
