//! A long search in parts, run by real distributed engines: GNU Parallel (a joblog, one part
//! killed midway, `--resume-failed`; counts) and a one-node Slurm cluster (a job array).
//! The parts' records, merged, give the answer of a single run of the whole puzzle.
//!
//! They need the engines installed, so they are ignored unless asked for (`cargo test
//! --release -- --include-ignored`, as CI runs them): the test summary lists them as ignored,
//! with what each needs. Asked for without its engine, a test fails and says how to get it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::puzzle;

/// Domination bnb minimize, 16x16 knights: about a second in one run on one thread, parts of
/// about half a second each (each part first finds the bound, then searches its share).
const PUZZLE: &str = "knights8.toml";
const ARGS: &[&str] = &["--size", "16"];
const PARTS: usize = 4;

/// How to get the engines, printed when they are missing.
const HOW: &str = "to run these tests: apt-get install parallel slurm-wlm munge, then, as root, \
                   scripts/slurm-up.sh (a one-node Slurm cluster; scripts/slurm-down.sh stops it)";

fn solve_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("solve")
}

/// PATH with the directory of the `solve` under test first, so that the plan's `solve`
/// commands run it wherever an engine starts them.
fn path_env() -> String {
    let bin = solve_bin();
    let dir = bin.parent().unwrap().display().to_string();
    match std::env::var("PATH") {
        Ok(p) if !p.is_empty() => format!("{dir}:{p}"),
        _ => dir,
    }
}

/// A command with the test PATH, in `dir`.
fn cmd(program: &str, dir: &Path) -> Command {
    let mut c = Command::new(program);
    c.env("PATH", path_env()).current_dir(dir);
    c
}

fn text(out: &Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run `solve` with `args` in `dir`: exit status, standard output, standard error.
fn solve(dir: &Path, args: &[&str]) -> (i32, String, String) {
    text(
        &cmd(solve_bin().to_str().unwrap(), dir)
            .args(args)
            .output()
            .unwrap(),
    )
}

/// The puzzle file and its arguments, as `solve` and `solve plan` take them.
fn job_args() -> Vec<String> {
    let mut v = vec![puzzle(PUZZLE)];
    v.extend(ARGS.iter().map(|s| s.to_string()));
    v
}

/// The answer line of a single run of the whole puzzle ("optimum 40 (proven)").
fn single_run_answer() -> &'static str {
    static ANSWER: OnceLock<String> = OnceLock::new();
    ANSWER.get_or_init(|| {
        let mut args = job_args();
        args.push("--quiet".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = solve(&std::env::temp_dir(), &args);
        assert_eq!(code, 0, "single run: {out}{err}");
        let line = out.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
        assert!(line.contains("proven"), "single run: {out}");
        line.trim().to_string()
    })
}

/// The engines a test drives.
#[derive(PartialEq)]
enum Engine {
    GnuParallel,
    Slurm,
}

/// Fails the test, saying how to get them, unless the engine it needs is here: a test that
/// was asked for must not pass without running.
fn require_engine(test: &str, engine: Engine) {
    let mut missing = Vec::new();
    let gnu_parallel = engine != Engine::GnuParallel
        || Command::new("parallel")
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| {
                o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU parallel")
            });
    if !gnu_parallel {
        missing.push("GNU Parallel (`parallel`)".to_string());
    }
    if engine == Engine::Slurm {
        match Command::new("sinfo").args(["-h", "-o", "%t"]).output() {
            Err(_) => missing.push("Slurm (`sinfo`, `sbatch`)".to_string()),
            Ok(o) => {
                let states = String::from_utf8_lossy(&o.stdout).into_owned();
                let up = o.status.success()
                    // A trailing * marks a node that does not respond.
                    && states
                        .split_whitespace()
                        .any(|s| ["idle", "mix", "alloc"].contains(&s));
                if !up {
                    missing.push(format!(
                        "a running Slurm cluster with a node up (sinfo: {}{})",
                        states.trim(),
                        String::from_utf8_lossy(&o.stderr).trim()
                    ));
                }
            }
        }
    }
    if !missing.is_empty() {
        panic!("{test}: missing {}; {HOW}", missing.join(" and "));
    }
}

/// A fresh folder under the system's temp folder, removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let dir =
            std::env::temp_dir().join(format!("boardsolve-{name}-{}-{nanos}", std::process::id()));
        fs::create_dir_all(dir.join("results")).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A child process killed if the test ends (panics) before it does.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// The record files in `dir`, sorted, as a shell's `dir/*.jsonl` gives them.
fn records(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| p.display().to_string())
        .collect();
    v.sort();
    v
}

/// `solve merge` of every record in `dir`.
fn merge(dir: &Path) -> (i32, String, String) {
    let recs = records(&dir.join("results"));
    let mut args = vec!["merge"];
    args.extend(recs.iter().map(String::as_str));
    solve(dir, &args)
}

/// The lines of `solve plan` for the job, with `extra` options.
fn plan(dir: &Path, extra: &[&str]) -> String {
    let results = dir.join("results").display().to_string();
    let parts = PARTS.to_string();
    let mut args = vec!["plan".to_string()];
    args.extend(job_args());
    args.extend(["--parts".into(), parts, "--results".into(), results]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = solve(dir, &args);
    assert_eq!(code, 0, "solve plan: {out}{err}");
    out
}

/// A `solve` process of this test (its record path is under `dir`): pid, part ("2/4"), and
/// CPU time so far in clock ticks.
fn running_parts(dir: &Path) -> Vec<(u32, String, u64)> {
    let token = dir.display().to_string();
    let mut found = Vec::new();
    let Ok(procs) = fs::read_dir("/proc") else {
        return found;
    };
    for entry in procs.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(raw) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let argv: Vec<String> = raw
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        // The program itself, not a shell that runs it.
        if !argv[0].ends_with("solve") || !argv.iter().any(|a| a.contains(&token)) {
            continue;
        }
        let Some(i) = argv.iter().position(|a| a == "--part") else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the command name in parentheses: state is the 1st, utime the 12th,
        // stime the 13th.
        let rest: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        if rest[0] == "Z" {
            continue;
        }
        let ticks = rest[11].parse::<u64>().unwrap_or(0) + rest[12].parse::<u64>().unwrap_or(0);
        found.push((pid, argv[i + 1].clone(), ticks));
    }
    found
}

/// The rows of a GNU Parallel joblog: (seq, exit value, signal, command), the last row of
/// each seq winning (a rerun appends one).
fn joblog(path: &Path) -> Vec<(usize, i64, i64, String)> {
    let log = fs::read_to_string(path).unwrap();
    let mut rows: Vec<(usize, i64, i64, String)> = Vec::new();
    for line in log.lines().skip(1) {
        let f: Vec<&str> = line.splitn(9, '\t').collect();
        assert_eq!(f.len(), 9, "joblog row: {line}");
        let row = (
            f[0].parse().unwrap(),
            f[6].parse().unwrap(),
            f[7].parse().unwrap(),
            f[8].to_string(),
        );
        rows.retain(|r| r.0 != row.0);
        rows.push(row);
    }
    rows.sort_by_key(|r| r.0);
    rows
}

fn parallel(dir: &Path, extra: &[&str]) -> Command {
    let mut c = cmd("parallel", dir);
    c.args(["--will-cite", "--joblog", "jobs.log", "-j", "2"])
        .args(extra)
        .args(["::::", "commands.txt"])
        .stdin(Stdio::null());
    c
}

#[test]
#[ignore = "needs GNU Parallel (apt-get install parallel); run with -- --include-ignored"]
fn gnu_parallel_runs_the_parts_and_reruns_the_one_killed() {
    require_engine(
        "gnu_parallel_runs_the_parts_and_reruns_the_one_killed",
        Engine::GnuParallel,
    );
    let answer = single_run_answer();
    let tmp = TempDir::new("parallel");
    let dir = tmp.0.as_path();

    // One thread a part, two parts at a time.
    let commands = plan(dir, &["--threads", "1"]);
    let lines: Vec<&str> = commands.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), PARTS, "one command per part: {commands}");
    for (i, l) in lines.iter().enumerate() {
        assert!(
            l.contains(&format!("--part {}/{PARTS}", i + 1)),
            "{commands}"
        );
        assert!(l.contains(&format!("part-{}.jsonl", i + 1)), "{commands}");
    }
    fs::write(dir.join("commands.txt"), &commands).unwrap();

    // Run the parts; SIGKILL the first part seen with a tenth of a second of CPU behind it.
    let out = fs::File::create(dir.join("parallel.out")).unwrap();
    let mut run = Reaped(
        parallel(dir, &[])
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap(),
    );
    let start = Instant::now();
    let mut killed: Option<String> = None;
    let status = loop {
        if let Some(status) = run.0.try_wait().unwrap() {
            break status;
        }
        let candidate = match killed {
            None => running_parts(dir).into_iter().find(|p| p.2 >= 10),
            Some(_) => None,
        };
        if let Some((pid, part, _)) = candidate {
            let k = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            if k.is_ok_and(|s| s.success()) {
                killed = Some(part);
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "parallel runs too long"
        );
        sleep(Duration::from_millis(10));
    };
    let log = fs::read_to_string(dir.join("parallel.out")).unwrap_or_default();
    let killed = killed.unwrap_or_else(|| panic!("no part ran long enough to be killed: {log}"));
    assert!(!status.success(), "parallel with a killed part: {log}");

    // The joblog marks that part, and only it, failed, killed by signal 9.
    let rows = joblog(&dir.join("jobs.log"));
    assert_eq!(rows.len(), PARTS, "{rows:?}");
    let failed: Vec<_> = rows.iter().filter(|r| r.1 != 0 || r.2 != 0).collect();
    assert_eq!(failed.len(), 1, "{rows:?}");
    assert_eq!(failed[0].2, 9, "{rows:?}");
    assert!(
        failed[0].3.contains(&format!("--part {killed}")),
        "{rows:?}"
    );
    let k: usize = killed.split('/').next().unwrap().parse().unwrap();
    assert!(!dir.join(format!("results/part-{k}.jsonl")).exists());
    assert_eq!(records(&dir.join("results")).len(), PARTS - 1);

    // The merge names the missing part and the command that runs it.
    let (code, out, err) = merge(dir);
    assert_eq!(code, 3, "merge with part {killed} missing: {out}{err}");
    let said = format!("{out}{err}");
    assert!(said.contains(&killed), "merge names part {killed}: {said}");
    assert!(
        said.contains(&format!("--part {killed}")),
        "its command: {said}"
    );
    assert!(
        said.contains(&format!("part-{k}.jsonl")),
        "its record: {said}"
    );
    assert!(!said.contains(answer), "no answer yet: {said}");

    // The same input and joblog: only the failed part runs again.
    let rerun = parallel(dir, &["--resume-failed"]).output().unwrap();
    let (code, out, err) = text(&rerun);
    assert_eq!(code, 0, "parallel --resume-failed: {out}{err}");
    let log = fs::read_to_string(dir.join("jobs.log")).unwrap();
    assert_eq!(log.lines().count(), 1 + PARTS + 1, "one more row: {log}");
    let rows = joblog(&dir.join("jobs.log"));
    assert!(rows.iter().all(|r| r.1 == 0 && r.2 == 0), "{log}");
    assert_eq!(records(&dir.join("results")).len(), PARTS);

    let (code, out, err) = merge(dir);
    assert_eq!(code, 0, "merge of every part: {out}{err}");
    assert!(
        out.lines().any(|l| l.trim() == answer),
        "merge gives the single run's answer {answer:?}: {out}{err}"
    );
}

/// A job's tasks' states, from `scontrol show job`.
fn slurm_states(job: &str) -> Vec<String> {
    let out = Command::new("scontrol")
        .args(["show", "job", "-o", job])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("JobState="))
        .map(str::to_string)
        .collect()
}

/// A Slurm job cancelled if the test ends before it leaves the queue.
struct Job {
    id: String,
    queued: bool,
}

impl Drop for Job {
    fn drop(&mut self) {
        if self.queued {
            let _ = Command::new("scancel").arg(&self.id).status();
        }
    }
}

#[test]
#[ignore = "needs a running Slurm cluster (apt-get install slurm-wlm munge; scripts/slurm-up.sh); run with -- --include-ignored"]
fn slurm_job_array_runs_the_parts() {
    require_engine("slurm_job_array_runs_the_parts", Engine::Slurm);
    let answer = single_run_answer();
    let tmp = TempDir::new("slurm");
    let dir = tmp.0.as_path();

    let script = plan(dir, &["--slurm"]);
    assert!(script.starts_with("#!"), "a batch script: {script}");
    assert!(
        script.contains(&format!("#SBATCH --array=1-{PARTS}")),
        "a job array: {script}"
    );
    assert!(script.contains("SLURM_ARRAY_TASK_ID"), "{script}");
    fs::write(dir.join("job.sh"), &script).unwrap();

    // Submit, then wait for the array to leave the queue (sbatch --wait polls every few
    // seconds; squeue answers at once).
    let (code, out, err) = text(
        &cmd("sbatch", dir)
            .args(["--parsable", "--job-name=boardsolve-test", "job.sh"])
            .output()
            .unwrap(),
    );
    assert_eq!(code, 0, "sbatch: {out}{err}");
    let id = out.trim().split(';').next().unwrap().to_string();
    let mut job = Job {
        id: id.clone(),
        queued: true,
    };
    let start = Instant::now();
    loop {
        let q = Command::new("squeue")
            .args(["-h", "-j", &id])
            .output()
            .unwrap();
        if q.status.success() && q.stdout.iter().all(u8::is_ascii_whitespace) {
            job.queued = false;
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "job {id} still queued after 300 s: {}",
            String::from_utf8_lossy(&q.stdout)
        );
        sleep(Duration::from_millis(200));
    }
    // Finished jobs stay known for MinJobAge seconds (60 with scripts/slurm-up.sh).
    let states = slurm_states(&id);
    let outputs: String = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("slurm-"))
        .map(|e| fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(
        states.iter().all(|s| s == "COMPLETED"),
        "job {id}: {states:?}\n{outputs}"
    );
    assert_eq!(records(&dir.join("results")).len(), PARTS, "{outputs}");

    let (code, out, err) = merge(dir);
    assert_eq!(code, 0, "merge of every part: {out}{err}\n{outputs}");
    assert!(
        out.lines().any(|l| l.trim() == answer),
        "merge gives the single run's answer {answer:?}: {out}{err}"
    );
}

/// Counts in parts, run by GNU Parallel: the 14-queens solutions, and the 13x13 knights'
/// placements of the optimum (each part told the optimum); the merge adds the parts' counts.
#[test]
#[ignore = "needs GNU Parallel (apt-get install parallel); run with -- --include-ignored"]
fn gnu_parallel_runs_counts_in_parts() {
    require_engine("gnu_parallel_runs_counts_in_parts", Engine::GnuParallel);
    for (name, file, size) in [("queens", "queens8.toml", "14"), ("knights", PUZZLE, "13")] {
        let tmp = TempDir::new(&format!("count-{name}"));
        count_in_parts(tmp.0.as_path(), &puzzle(file), size);
    }
}

fn count_in_parts(dir: &Path, file: &str, size: &str) {
    let job = [file, "--size", size, "--goal", "count", "--threads", "1"];
    let (code, out, err) = solve(dir, &[&job[..], &["--quiet"]].concat());
    assert_eq!(code, 0, "single run: {out}{err}");
    let answer = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap()
        .trim();
    // A count of an optimum's placements takes the optimum as given.
    let optimum = answer
        .split_once("of optimum ")
        .and_then(|(_, rest)| rest.split(' ').next());
    let results = dir.join("results").display().to_string();
    let mut plan_args = vec!["plan"];
    plan_args.extend(job);
    plan_args.extend(["--parts", "4", "--results", &results]);
    if let Some(k) = optimum {
        plan_args.extend(["--optimum", k]);
    }
    let (code, commands, err) = solve(dir, &plan_args);
    assert_eq!(code, 0, "solve plan: {commands}{err}");
    assert_eq!(commands.lines().count(), 4, "{commands}");
    fs::write(dir.join("commands.txt"), &commands).unwrap();

    let (code, out, err) = text(&parallel(dir, &[]).output().unwrap());
    assert_eq!(code, 0, "parallel: {out}{err}");
    assert_eq!(records(&dir.join("results")).len(), 4);
    let (code, out, err) = merge(dir);
    assert_eq!(code, 0, "merge of every part: {out}{err}");
    // The parts count at the optimum they were given, which they do not prove: "26
    // solutions of optimum 29 (proven)" run whole, "26 solutions of 29 pieces" merged.
    let answer = match answer.strip_suffix(" (proven)") {
        Some(a) => format!("{} pieces", a.replace("of optimum ", "of ")),
        None => answer.to_string(),
    };
    assert!(
        out.lines().any(|l| l.trim().starts_with(&answer)),
        "merge gives the single run's count {answer:?}: {out}{err}"
    );
}
