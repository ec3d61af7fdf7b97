//! One integration-test binary (as ripgrep does): modules by subject, shared helpers here.

mod army;
mod bad_input;
mod cli;
mod construct;
mod cover;
mod dlx;
mod domination;
mod engines;
mod fifo;
mod fuzz;
mod fuzz_records;
mod independent;
mod knuth;
mod layers;
mod lines;
mod output;
mod parts;
mod plan_files;
mod records;
mod sudoku;
mod tiling;
mod tour;
mod validate;

use boardsolve::engine::{Goal, Limits, Outcome, Run, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};

/// A puzzle text compiled, at board size `size` when given.
pub fn model_of(text: &str, size: Option<usize>) -> Model {
    let overrides = Overrides {
        size,
        ..Overrides::default()
    };
    let spec = Spec::parse("test.toml", text, &overrides).unwrap_or_else(|e| panic!("{e}"));
    Model::compile(&spec).unwrap_or_else(|e| panic!("{e}"))
}

/// Solve a puzzle text with one strategy; solutions (first/all) are collected.
pub fn solve(
    text: &str,
    size: Option<usize>,
    strategy: &str,
    goal: Goal,
    unique: bool,
    threads: usize,
) -> (Outcome, Vec<Vec<usize>>, Model) {
    let model = model_of(text, size);
    let task = Task {
        goal,
        unique,
        threads,
        ..Task::default()
    };
    let run = Run::new(Limits {
        solutions: (goal == Goal::First).then_some(1),
        ..Limits::default()
    });
    // Every solution is checked by the model's validator on its way out, as the CLI does.
    let checked = model
        .solve_checked(strategy, &task, run, u64::MAX)
        .unwrap_or_else(|e| panic!("{e}"));
    let (outcome, sols) = (checked.outcome, checked.solutions);
    (outcome, sols, model)
}

/// Solve part `part` (and subpart `subpart`) of a puzzle with one strategy, as
/// `solve --part I/N,J/M` does, every solution checked by the model's validator on its way
/// out; `part` `None`: the whole search.
pub fn solve_part(
    text: &str,
    size: Option<usize>,
    strategy: &str,
    (goal, unique): (Goal, bool),
    threads: usize,
    part: Option<(usize, usize)>,
    subpart: Option<(usize, usize)>,
) -> (Outcome, Vec<Vec<usize>>) {
    let model = model_of(text, size);
    let task = Task {
        goal,
        unique,
        threads,
        part,
        subpart,
        ..Task::default()
    };
    let checked = model
        .solve_checked(strategy, &task, Run::new(Limits::default()), u64::MAX)
        .unwrap_or_else(|e| panic!("{e}"));
    (checked.outcome, checked.solutions)
}

/// What the parts of one split found, added up: count, nodes, updates, solutions (sorted).
#[derive(Debug, Default, PartialEq)]
pub struct Sum {
    pub count: u128,
    pub nodes: u64,
    pub updates: Option<u64>,
    pub solutions: Vec<Vec<usize>>,
}

impl Sum {
    fn add(&mut self, o: &Outcome, sols: Vec<Vec<usize>>) {
        self.count += o.answer.count.expect("a count");
        self.nodes += o.stats.nodes;
        if let Some(u) = o.stats.counter("updates") {
            *self.updates.get_or_insert(0) += u;
        }
        self.solutions.extend(sols);
        self.solutions.sort();
    }
}

/// `--part I/N` for N = 1, 2, 3, 7 and part 2/3 in subparts 1..4 of 4: the parts of one N
/// report one list (subtree count and fingerprint) and take each subtree once; their counts,
/// nodes, updates and (goal all) checked solutions add up to the whole search's, and the
/// subparts' to their part's. The parts alternate one thread and two, and a part's list is
/// the same on two threads. `goal`: count or all, and whether `--unique`. Returns the whole
/// search's sum.
pub fn parts_sum(text: &str, size: Option<usize>, strategy: &str, goal: (Goal, bool)) -> Sum {
    use boardsolve::engine::{PartialWork, Status};
    let sum_of = |part: Option<(usize, usize)>, subparts: &[Option<(usize, usize)>]| {
        let mut sum = Sum::default();
        let mut lists = Vec::new();
        for (k, &sub) in subparts.iter().enumerate() {
            let threads = 1 + (k + part.map_or(0, |p| p.0)) % 2;
            let (o, sols) = solve_part(text, size, strategy, goal, threads, part, sub);
            let what = format!("{strategy} part {part:?} {sub:?} threads {threads}");
            if part.is_some() {
                assert_eq!(o.status, Status::Part, "{what}");
                let p = o.answer.partial.clone().expect("a part's record");
                assert_eq!(p.work, PartialWork::Counted, "{what}");
                assert_eq!((p.part, p.subpart.map(|s| s.index)), (part, sub), "{what}");
                lists.push((
                    p.list,
                    p.subpart.map(|s| (s.descendants, s.fingerprint)),
                    p.taken,
                ));
            }
            sum.add(&o, sols);
        }
        (sum, lists)
    };
    let (whole, _) = sum_of(None, &[None]);
    for n in [1, 2, 3, 7] {
        let parts: Vec<Option<(usize, usize)>> = (1..=n).map(|i| Some((i, n))).collect();
        let mut sum = Sum::default();
        let mut lists = Vec::new();
        for &p in &parts {
            let (s, l) = sum_of(p, &[None]);
            sum.add_sum(s);
            lists.extend(l);
        }
        let list = lists[0].0;
        assert!(
            lists.iter().all(|l| l.0 == list),
            "{strategy} N = {n}: {lists:?}"
        );
        let taken: usize = lists.iter().map(|l| l.2).sum();
        assert_eq!(taken, list.subtrees, "{strategy} N = {n}");
        assert_eq!(sum, whole, "{strategy} N = {n}");
        // Part 2 of N (part 1 when alone) again, on the other number of threads: one list.
        let i = n.min(2);
        let (o, _) = solve_part(text, size, strategy, goal, 2 - (i % 2), Some((i, n)), None);
        let p = o.answer.partial.expect("a part's record");
        assert_eq!(
            p.list, list,
            "{strategy} N = {n}, part {i} on other threads"
        );
    }
    let (part, _) = sum_of(Some((2, 3)), &[None]);
    let subs: Vec<Option<(usize, usize)>> = (1..=4).map(|j| Some((j, 4))).collect();
    let (sum, lists) = sum_of(Some((2, 3)), &subs);
    let descendants = lists[0].1.expect("subparts").0;
    assert!(
        lists.iter().all(|l| l.1 == lists[0].1),
        "{strategy}: {lists:?}"
    );
    assert_eq!(lists.iter().map(|l| l.2).sum::<usize>(), descendants);
    assert_eq!(sum, part, "{strategy}: part 2/3 in 4 subparts");
    whole
}

impl Sum {
    fn add_sum(&mut self, other: Sum) {
        self.count += other.count;
        self.nodes += other.nodes;
        if let Some(u) = other.updates {
            *self.updates.get_or_insert(0) += u;
        }
        self.solutions.extend(other.solutions);
        self.solutions.sort();
    }
}

/// The path of a puzzle shipped in puzzles/.
/// Run the `solve` binary: exit status, standard output, standard error.
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    run_cli_with(args, None)
}

/// `run_cli` from a folder of the test's own, for commands that write beside their output
/// (`solve plan` writes its manifest into the results folder), so that none writes into the
/// source tree.
pub fn run_cli_in_scratch(args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!(
        "boardsolve-scratch-{}-{}",
        std::process::id(),
        SCRATCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let out = assert_cmd::Command::cargo_bin("solve")
        .unwrap()
        .current_dir(&dir)
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

static SCRATCH: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `run_cli` with text on standard input.
pub fn run_cli_with(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = assert_cmd::Command::cargo_bin("solve").unwrap();
    cmd.args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn puzzle(name: &str) -> String {
    format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whether `strategy` applies to the puzzle with goal count.
pub fn applies(text: &str, strategy: &str) -> bool {
    let spec = Spec::parse("test.toml", text, &Overrides::default()).unwrap();
    let model = Model::compile(&spec).unwrap();
    model
        .strategies(&Task::default())
        .iter()
        .any(|s| s.name == strategy && s.applies.is_ok())
}
