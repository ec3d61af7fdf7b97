//! Open tours counted in parts by `count`, a sweep per pair of ends up to the board's
//! symmetry: the parts run as `solve plan` prints them or with `--part` directly, their
//! records merged by `solve merge` into the whole run's count.

use boardsolve::engine::{Goal, PartialWork, Status};

use super::board;
use crate::{puzzle, run_cli, run_cli_in_scratch, solve, solve_part};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boardsolve-tour-parts-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The answer line of a run or a merge: the last line of standard output.
fn answer_line(out: &str) -> String {
    out.lines().last().unwrap_or("").to_string()
}

/// What a part's record says of its list and its share: the list's subtrees and
/// fingerprint, the subtrees it took, its count.
fn record(path: &std::path::Path) -> (u64, String, u64, u128) {
    let line = std::fs::read_to_string(path).unwrap();
    let r: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(r["strategy"], "count", "{line}");
    assert_eq!(r["finished"], true, "{line}");
    (
        r["list"]["subtrees"].as_u64().unwrap(),
        r["list"]["fingerprint"].as_str().unwrap().to_string(),
        r["taken"].as_u64().unwrap(),
        r["count"].as_str().unwrap().parse().unwrap(),
    )
}

/// The records of one split: one list, each subtree taken once, their counts adding up to
/// `whole`; the list's length.
fn records_add_up(paths: &[std::path::PathBuf], whole: u128) -> u64 {
    let records: Vec<_> = paths.iter().map(|p| record(p)).collect();
    let (subtrees, fingerprint) = (records[0].0, &records[0].1);
    assert!(
        records
            .iter()
            .all(|r| (r.0, &r.1) == (subtrees, fingerprint)),
        "{records:?}"
    );
    assert_eq!(records.iter().map(|r| r.2).sum::<u64>(), subtrees);
    assert_eq!(records.iter().map(|r| r.3).sum::<u128>(), whole);
    subtrees
}

#[test]
fn the_plans_parts_of_6x6_open_tours_merge_to_the_whole_count() {
    let dir = temp_dir("6x6");
    let results = dir.join("results");
    let file = puzzle("tour5x5.toml");
    let (code, single, err) = run_cli(&[&file, "--size", "6", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&single), "6,637,920 solutions");
    let (code, plan, err) = run_cli_in_scratch(&[
        "plan",
        &file,
        "--size",
        "6",
        "--parts",
        "3",
        "--threads",
        "1",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // The parts run the frontier count too: nothing to say of another strategy.
    assert!(!err.contains("whole run"), "{err}");
    let lines: Vec<&str> = plan.lines().collect();
    assert_eq!(lines.len(), 3, "{plan}");
    let mut paths = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let path = results.join(format!("part-{}.jsonl", k + 1));
        let tail = format!(
            " --strategy count --part {}/3 --record {}",
            k + 1,
            path.display()
        );
        assert!(line.ends_with(&tail), "{line}");
        let words: Vec<&str> = line.split(' ').skip(1).collect();
        let (code, out, err) = run_cli(&words);
        assert_eq!(code, 0, "{line}: {err}");
        assert!(answer_line(&out).contains(&format!("[part {}/3:", k + 1)));
        paths.push(path);
    }
    // 18 x 18 pairs of squares of different colours; of the 8 symmetries the two
    // reflections in a middle line keep 18 each (a square and its mirror image), the others
    // none: (324 + 36) / 8 orbits (Burnside), a sweep each.
    assert_eq!(records_add_up(&paths, 6_637_920), 45);
    let (code, out, err) = run_cli(&["merge", results.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&out), answer_line(&single));
    assert!(err.contains("merged 3 records of 3 parts"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parts_of_5x8_open_tours_merge_to_the_whole_count_whole_or_in_subparts() {
    let dir = temp_dir("5x8");
    let file = puzzle("tour5x5.toml");
    let board = ["--width", "8", "--height", "5"];
    let (code, single, err) = run_cli(&[&file, board[0], board[1], board[2], board[3], "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&single), "36,122,108 solutions");
    let units = ["1/5", "2/5", "3/5", "4/5", "5/5", "2/5,1/2", "2/5,2/2"];
    let mut paths = Vec::new();
    for (k, unit) in units.iter().enumerate() {
        let path = dir.join(format!("unit-{k}.jsonl"));
        let threads = ["1", "2"][k % 2];
        let mut args = vec![file.as_str()];
        args.extend(board);
        args.extend(["--strategy", "count", "--threads", threads, "--part", unit]);
        args.extend(["--record", path.to_str().unwrap()]);
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 0, "{unit}: {err}");
        paths.push(path);
    }
    // 20 x 20 pairs; the half turn and the reflection across the long side keep 20 each
    // (a square and its image, of the other colour), the reflection across the short side
    // the 4 x 4 pairs of its middle line's squares: (400 + 20 + 20 + 16) / 4 orbits.
    assert_eq!(records_add_up(&paths[..5], 36_122_108), 114);
    // Part 2 in its subparts counts what it counts whole.
    let part = record(&paths[1]);
    let subs = [record(&paths[5]), record(&paths[6])];
    assert_eq!(subs[0].3 + subs[1].3, part.3);
    assert_eq!(subs[0].2 + subs[1].2, part.2);
    let text = |p: &std::path::PathBuf| p.to_string_lossy().into_owned();
    let all: Vec<String> = paths.iter().map(text).collect();
    let mut args = vec!["merge"];
    args.extend(all.iter().map(String::as_str));
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&out), answer_line(&single));
    // The subparts stand for part 2: merged without the part, the same count.
    let mut args = vec!["merge"];
    args.extend(
        all.iter()
            .enumerate()
            .filter(|&(k, _)| k != 1)
            .map(|(_, p)| p.as_str()),
    );
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer_line(&out), answer_line(&single));
    // Without part 4: still to run, its command said.
    let mut args = vec!["merge"];
    args.extend(
        all.iter()
            .enumerate()
            .filter(|&(k, _)| k != 3)
            .map(|(_, p)| p.as_str()),
    );
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.contains("--strategy count") && l.contains("--part 4/5")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A start, holes, both, and a single cell: the parts of 1, 2, 3 and 5 (one thread and two)
/// count between them what one run counts, with one list; part 2 of 3 in subparts what it
/// counts whole.
#[test]
fn parts_with_a_start_or_holes_count_what_one_run_counts() {
    let with_holes =
        |text: String, holes: &str| text.replace("[rules]", &format!("holes = {holes}\n[rules]"));
    let boards = [
        board(6, 6, false, Some((0, 1))),
        with_holes(board(6, 6, false, None), "[[0, 0], [2, 3], [5, 4], [3, 3]]"),
        with_holes(board(5, 6, false, Some((0, 3))), "[[1, 1]]"),
        board(7, 5, false, Some((2, 2))),
        board(1, 1, false, None),
    ];
    let goal = (Goal::Count, false);
    for text in &boards {
        let (o, _, _) = solve(text, None, "count", Goal::Count, false, 1);
        let whole = o.answer.count.expect("a count");
        assert!(whole > 0, "{text}");
        let part = |part, subpart, threads| {
            let (o, _) = solve_part(text, None, "count", goal, threads, Some(part), subpart);
            assert_eq!(o.status, Status::Part, "{text}");
            let p = o.answer.partial.expect("a part's record");
            assert_eq!(p.work, PartialWork::Counted, "{text}");
            (o.answer.count.expect("a count"), p.list, p.taken)
        };
        for n in [1, 2, 3, 5] {
            let parts: Vec<_> = (1..=n).map(|i| part((i, n), None, 1 + i % 2)).collect();
            let list = parts[0].1;
            assert!(parts.iter().all(|p| p.1 == list), "{text} N = {n}");
            assert_eq!(
                parts.iter().map(|p| p.2).sum::<usize>(),
                list.subtrees,
                "{text} N = {n}"
            );
            assert_eq!(
                parts.iter().map(|p| p.0).sum::<u128>(),
                whole,
                "{text} N = {n}"
            );
            // The same part on the other number of threads: the same list and count.
            let again = part((1, n), None, 1);
            assert_eq!((again.0, again.1), (parts[0].0, list), "{text} N = {n}");
        }
        let (count, _, _) = part((2, 3), None, 1);
        let subs: u128 = (1..=3).map(|j| part((2, 3), Some((j, 3)), 2).0).sum();
        assert_eq!(subs, count, "{text}");
    }
}
