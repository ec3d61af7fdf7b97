//! A fuzz harness for part records: the records of two small searches (an N-Queens count in
//! three parts, a knights domination in two) damaged and forged field by field (values of
//! other types, at the extremes, with control characters and newlines; fields dropped;
//! records cut, doubled, dropped, swapped; counts and proofs changed by one), then merged
//! with every part run again (`--verify`). However the records were edited, the merge must
//! end with status 0 to 3 and no panic; a merge that exits 0 must print the true answer; a
//! refusal must name where the fault is; and no command it prints may hold a line that a
//! runner would read as another command.
//!
//! 64 cases by default; `BOARDSOLVE_FUZZ_CASES` and `BOARDSOLVE_FUZZ_SEED` as in fuzz.rs.

use std::path::PathBuf;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

use super::records::records;
use super::{puzzle, run_cli};

#[derive(Clone, Debug)]
enum Forgery {
    Set(usize, &'static str, serde_json::Value),
    Drop(usize, &'static str),
    Cut(usize, usize),
    Twice(usize),
    Remove(usize),
    Swap(usize, usize),
    /// A count (or what an optimisation proved) one more or one less.
    Nudge(usize, bool),
    /// Bytes that are not UTF-8, at per mille of the line.
    Bytes(usize, usize),
}

const FIELDS: [&str; 22] = [
    "record",
    "scheme",
    "version",
    "commit",
    "puzzle",
    "file",
    "args",
    "title",
    "kind",
    "strategy",
    "goal",
    "counted",
    "list",
    "proven",
    "part",
    "subpart",
    "taken",
    "finished",
    "count",
    "none_below",
    "best",
    "solution",
];

fn value() -> BoxedStrategy<serde_json::Value> {
    use serde_json::json;
    prop_oneof![
        Just(json!(null)),
        any::<bool>().prop_map(|b| json!(b)),
        prop_oneof![Just(0i64), Just(-1), Just(1), Just(i64::MAX), Just(2)].prop_map(|v| json!(v)),
        Just(json!(u64::MAX)),
        Just(json!(1e300)),
        prop_oneof![
            Just("340282366920938463463374607431768211455"),
            Just("99999999999999999999999999999999999999999999999999"),
            Just("x\ntouch PWNED"),
            Just("a\rb"),
            Just("\u{0}"),
            Just("\u{202e}"),
            Just("--output"),
            Just(""),
            Just("0"),
            Just("count"),
            Just("maximize"),
            Just("ffffffffffffffff"),
        ]
        .prop_map(|s| json!(s)),
        Just(json!(["--output", "/tmp/PWNED"])),
        Just(json!(["--size", "11"])),
        Just(json!([1, 2])),
        Just(json!([0, 0])),
        Just(json!([3, 2])),
        Just(json!({"subtrees": 1, "bar": null, "fingerprint": "0"})),
        Just(json!({"index": [1, 2], "descendants": 4, "of_subtrees": 4, "fingerprint": "0"})),
        Just(json!({})),
    ]
    .boxed()
}

fn forgery() -> BoxedStrategy<Forgery> {
    let field = (0..FIELDS.len()).prop_map(|k| FIELDS[k]);
    prop_oneof![
        4 => (0..4usize, field.clone(), value()).prop_map(|(r, f, v)| Forgery::Set(r, f, v)),
        1 => (0..4usize, field).prop_map(|(r, f)| Forgery::Drop(r, f)),
        1 => (0..4usize, 0..1000usize).prop_map(|(r, p)| Forgery::Cut(r, p)),
        1 => (0..4usize).prop_map(Forgery::Twice),
        1 => (0..4usize).prop_map(Forgery::Remove),
        1 => (0..4usize, 0..4usize).prop_map(|(a, b)| Forgery::Swap(a, b)),
        2 => (0..4usize, any::<bool>()).prop_map(|(r, up)| Forgery::Nudge(r, up)),
        1 => (0..4usize, 0..1000usize).prop_map(|(r, p)| Forgery::Bytes(r, p)),
    ]
    .boxed()
}

fn edit(
    v: &mut serde_json::Value,
    key: &str,
    f: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>, &str),
) {
    if let Some(m) = v.as_object_mut() {
        f(m, key)
    }
}

/// The records' lines as bytes after the forgeries.
fn forge(lines: &[String], forgeries: &[Forgery]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = lines.iter().map(|l| l.as_bytes().to_vec()).collect();
    for f in forgeries {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        let json = |l: &[u8]| serde_json::from_slice::<serde_json::Value>(l).ok();
        match f {
            Forgery::Set(r, key, value) => {
                if let Some(mut v) = json(&lines[r % n]) {
                    edit(&mut v, key, |m, k| {
                        m.insert(k.into(), value.clone());
                    });
                    lines[r % n] = serde_json::to_vec(&v).unwrap();
                }
            }
            Forgery::Drop(r, key) => {
                if let Some(mut v) = json(&lines[r % n]) {
                    edit(&mut v, key, |m, k| {
                        m.remove(k);
                    });
                    lines[r % n] = serde_json::to_vec(&v).unwrap();
                }
            }
            Forgery::Cut(r, p) => {
                let l = &mut lines[r % n];
                l.truncate(l.len() * p / 1000);
            }
            Forgery::Twice(r) => {
                let l = lines[r % n].clone();
                lines.push(l);
            }
            Forgery::Remove(r) => {
                lines.remove(r % n);
            }
            Forgery::Swap(a, b) => lines.swap(a % n, b % n),
            Forgery::Nudge(r, up) => {
                if let Some(mut v) = json(&lines[r % n]) {
                    let step = |x: u64| {
                        if *up {
                            x.saturating_add(1)
                        } else {
                            x.saturating_sub(1)
                        }
                    };
                    if let Some(c) = v["count"].as_str().and_then(|c| c.parse::<u64>().ok()) {
                        v["count"] = serde_json::json!(step(c).to_string());
                    } else if let Some(b) = v["none_below"].as_u64() {
                        v["none_below"] = serde_json::json!(step(b));
                    }
                    lines[r % n] = serde_json::to_vec(&v).unwrap();
                }
            }
            Forgery::Bytes(r, p) => {
                let l = &mut lines[r % n];
                let at = l.len() * p / 1000;
                l.splice(at..at, [0xff, 0xfe, b'\n', 0x80]);
            }
        }
    }
    let mut out = Vec::new();
    for l in lines {
        out.extend(l);
        out.push(b'\n');
    }
    out
}

struct Base {
    lines: Vec<String>,
    /// The answer line the honest records merge to.
    answer: String,
}

fn base(file: &str, args: &[&str], parts: &[&str]) -> Base {
    let lines = records(file, args, parts);
    let dir = scratch("records");
    let path = dir.join("base.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (code, out, err) = run_cli(&["merge", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    Base {
        lines,
        answer: out.lines().last().unwrap().to_string(),
    }
}

/// A folder of one test's own: the two tests run side by side, and each removes its own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boardsolve-fuzz-records-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The cases (`BOARDSOLVE_FUZZ_CASES`, 64 by default, divided by `share`) drawn with
/// `BOARDSOLVE_FUZZ_SEED` (11 by default) as the generator's start.
fn runner(share: u32) -> TestRunner {
    TestRunner::new(Config {
        cases: env_number("BOARDSOLVE_FUZZ_CASES", 64) as u32 / share,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(env_number("BOARDSOLVE_FUZZ_SEED", 11)),
        ..Config::default()
    })
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn fuzz_forged_records_never_merge_to_a_wrong_answer() {
    let bases = [
        base(
            &puzzle("queens8.toml"),
            &["--size", "10", "--goal", "count", "--strategy", "bitmask"],
            &["1/3", "2/3", "3/3"],
        ),
        base(
            &puzzle("knights8.toml"),
            &["--size", "10", "--strategy", "bnb"],
            &["1/2", "2/2"],
        ),
    ];
    let dir = scratch("records");
    let mut runner = runner(1);
    let strategy = (0..bases.len(), proptest::collection::vec(forgery(), 1..4));
    let result = runner.run(&strategy, |(b, forgeries)| {
        let base = &bases[b];
        let bytes = forge(&base.lines, &forgeries);
        let path = dir.join(format!("case-{b}.jsonl"));
        std::fs::write(&path, &bytes).unwrap();
        let path = path.to_str().unwrap();
        let (code, out, err) = run_cli(&["merge", path, "--verify", "1000", "--seed", "1"]);
        let what = format!("{forgeries:?}: status {code}\n{out}\n{err}");
        if !(0..=3).contains(&code) {
            return Err(TestCaseError::fail(format!("status out of range: {what}")));
        }
        if code == 0 && out.lines().last() != Some(base.answer.as_str()) {
            return Err(TestCaseError::fail(format!("a wrong answer: {what}")));
        }
        if code == 2 && !(err.contains("case-") || err.contains("verify")) {
            return Err(TestCaseError::fail(format!(
                "a refusal that names nothing: {what}"
            )));
        }
        if out
            .lines()
            .any(|l| l.trim_start().starts_with("touch") || l.contains("PWNED"))
        {
            return Err(TestCaseError::fail(format!("a planted command: {what}")));
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A path of quotes, dollars, dashes, spaces, letters beyond ASCII and control characters.
fn odd_name() -> BoxedStrategy<String> {
    let piece = prop_oneof![
        Just("q"),
        Just(" "),
        Just("'"),
        Just("\""),
        Just("$(touch PWNED)"),
        Just("`x`"),
        Just("-"),
        Just("--help"),
        Just("ü"),
        Just("\n"),
        Just("\r"),
        Just("\t"),
        Just("\u{1b}[2J"),
        Just("\u{7f}"),
        Just(";"),
        Just("*"),
    ];
    proptest::collection::vec(piece, 1..6)
        .prop_map(|v| v.concat())
        .boxed()
}

/// `solve plan` with a puzzle file and a results folder of odd names: a name with a control
/// character is refused; any other gives one command a line, each naming the program first,
/// and the commands, run by a shell, write their records where the plan says.
#[test]
fn fuzz_plans_of_odd_paths_give_whole_commands_or_none() {
    let dir = scratch("paths");
    let text = std::fs::read_to_string(puzzle("queens8.toml")).unwrap();
    let mut runner = runner(2);
    let names = (odd_name(), odd_name()).prop_map(|(f, r)| (format!("{f}.toml"), format!("{r}.d")));
    let result = runner.run(&names, |(file, results)| {
        let case = dir.join(format!("case-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&case);
        std::fs::create_dir_all(&case).unwrap();
        std::fs::write(case.join(&file), &text).unwrap();
        let out = assert_cmd::Command::cargo_bin("solve")
            .unwrap()
            .current_dir(&case)
            .args(["plan", "--size", "6", "--goal", "count", "--parts", "2"])
            .args([format!("--results={results}"), "--".into(), file.clone()])
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        let what = format!("{file:?} {results:?}: {:?}\n{stdout}\n{stderr}", out.status);
        let control = |s: &str| s.chars().any(char::is_control);
        if control(&file) || control(&results) {
            if out.status.code() != Some(2) || !stderr.contains("control character") {
                return Err(TestCaseError::fail(format!("not refused: {what}")));
            }
            return Ok(());
        }
        if out.status.code() != Some(0) || stdout.lines().count() != 2 {
            return Err(TestCaseError::fail(format!("not two commands: {what}")));
        }
        for line in stdout.lines() {
            let ran = std::process::Command::new("sh")
                .current_dir(&case)
                .args(["-c", line])
                .output()
                .unwrap();
            if !ran.status.success() {
                return Err(TestCaseError::fail(format!(
                    "a command failed: {line}\n{}",
                    String::from_utf8_lossy(&ran.stderr)
                )));
            }
        }
        if case.join("PWNED").exists() {
            return Err(TestCaseError::fail(format!(
                "a planted command ran: {what}"
            )));
        }
        let merged = assert_cmd::Command::cargo_bin("solve")
            .unwrap()
            .current_dir(&case)
            .args(["merge".to_string(), format!("./{results}")])
            .output()
            .unwrap();
        let answer = String::from_utf8_lossy(&merged.stdout).into_owned();
        if merged.status.code() != Some(0) || answer.lines().last() != Some("4 solutions") {
            return Err(TestCaseError::fail(format!("merged to {answer}: {what}")));
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        panic!("{e}");
    }
}
