//! What `solve` writes and when: solutions of goal `all` go out as they are found (so memory
//! stays flat however many are shown), and every phase after the search (checking a tour,
//! writing a board of 64 million squares) stops at the time limit or a signal, its output
//! closed where it stopped.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use boardsolve::engine::{Goal, Limits, Run, StopReason, Task};
use boardsolve::kinds::CheckError;

use crate::{model_of, puzzle};

fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(args)
        .arg("--quiet")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, signo: i32) -> Instant {
    // SAFETY: kill(2) on the child's own process id.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signo) }, 0);
    Instant::now()
}

/// Standard output of a child that signals it once `after` bytes have come: the solver is
/// then writing, and the signal must stop the writing, not the search.
struct Tap<'c> {
    out: ChildStdout,
    read: usize,
    after: usize,
    child: &'c Child,
    signo: i32,
    sent: Option<Instant>,
}

impl<'c> Tap<'c> {
    fn new(child: &'c mut Child, after: usize, signo: i32) -> Tap<'c> {
        let out = child.stdout.take().unwrap();
        Tap {
            out,
            read: 0,
            after,
            child,
            signo,
            sent: None,
        }
    }
}

impl Read for Tap<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.out.read(buf)?;
        self.read += n;
        if self.read >= self.after && self.sent.is_none() {
            self.sent = Some(signal(self.child, self.signo));
        }
        Ok(n)
    }
}

/// The exit status of a child whose output was read to its end, and how long after `since`
/// it ended.
fn ended(mut child: Child, since: Instant) -> (Option<i32>, Duration) {
    let status = child.wait().unwrap();
    (status.code(), since.elapsed())
}

/// Goal `all` writes each solution when it is found: the first board arrives while the
/// search goes on, and Ctrl-C then ends the run at once, with every board found so far
/// written whole and the answer line after them.
#[test]
fn goal_all_writes_each_solution_as_it_is_found_and_ctrl_c_ends_it() {
    let mut child = spawn(&[
        &puzzle("queens8.toml"),
        "--size",
        "16",
        "--goal",
        "all",
        "--limit",
        "100000000",
    ]);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut rows = 0;
    while rows < 16 {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "no board came");
        if line.contains('Q') {
            rows += 1;
        }
    }
    // 14,772,512 solutions: minutes of search, not over when the first board is out.
    assert!(child.try_wait().unwrap().is_none(), "the run ended first");
    let sent = signal(&child, libc::SIGINT);
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let (code, took) = ended(child, sent);
    assert_eq!(code, Some(3), "{}", &rest[rest.len().saturating_sub(500)..]);
    assert!(took < Duration::from_secs(5), "{took:?} after Ctrl-C");
    let lines: Vec<&str> = rest.lines().collect();
    let answer = lines.last().unwrap();
    assert!(
        answer.starts_with("at least ") && answer.ends_with("[interrupted]"),
        "{answer}"
    );
    let count: usize = answer["at least ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let queens = rest.matches('Q').count() + 16;
    assert_eq!(
        queens,
        16 * count,
        "every board written whole, none left out"
    );
}

/// The same in JSON, stopped by SIGTERM: the array of solutions is closed and the report
/// is valid JSON, its count the solutions written.
#[test]
fn goal_all_in_json_streams_and_sigterm_leaves_valid_json() {
    let mut child = spawn(&[
        &puzzle("queens8.toml"),
        "--size",
        "16",
        "--goal",
        "all",
        "--limit",
        "100000000",
        "--format",
        "json",
    ]);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.contains("\n    [[") {
        assert!(out.read_line(&mut text).unwrap() > 0, "no solution came");
    }
    assert!(child.try_wait().unwrap().is_none(), "the run ended first");
    let sent = signal(&child, libc::SIGTERM);
    out.read_to_string(&mut text).unwrap();
    let (code, took) = ended(child, sent);
    assert_eq!(code, Some(3));
    assert!(took < Duration::from_secs(5), "{took:?} after SIGTERM");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["status"], "limit");
    assert_eq!(v["stopped"], "interrupted");
    assert_eq!(v["truncated"], serde_json::Value::Null);
    let shown = v["solutions"].as_array().unwrap().len();
    assert!(shown >= 1);
    assert_eq!(v["count"], shown);
}

/// 365,596 boards written do not grow the solver's memory: they are written as they come,
/// not kept (kept, they took about 250 MB).
#[test]
fn goal_all_memory_stays_flat_however_many_are_shown() {
    let mut child = spawn(&[
        &puzzle("queens8.toml"),
        "--size",
        "14",
        "--goal",
        "all",
        "--limit",
        "100000000",
        "--threads",
        "1",
    ]);
    let mut out = child.stdout.take().unwrap();
    // The solver's own peak resident set (VmHWM), read while it writes: the peak that wait4
    // reports would count the pages of the test process it was forked from, before exec.
    let status = format!("/proc/{}/status", child.id());
    let peak_kb = || {
        std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
    };
    let mut buf = vec![0u8; 1 << 16];
    let (mut queens, mut peak) = (0usize, 0u64);
    loop {
        let n = out.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        queens += buf[..n].iter().filter(|&&b| b == b'Q').count();
        peak = peak.max(peak_kb().unwrap_or(0));
    }
    assert!(child.wait().unwrap().success());
    assert_eq!(queens, 14 * 365_596);
    assert!(peak > 0, "VmHWM was never read");
    assert!(peak / 1024 < 64, "peak {} MB", peak / 1024);
}

/// Knight moves, for the tours below.
fn is_knight_move(a: [u32; 2], b: [u32; 2]) -> bool {
    let dr = a[0].abs_diff(b[0]);
    let dc = a[1].abs_diff(b[1]);
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}

#[derive(serde::Deserialize)]
struct TourReport {
    status: String,
    solutions: Vec<Vec<[u32; 2]>>,
    truncated: Option<String>,
    unchecked: Option<String>,
}

/// A closed tour of 8000x8000 takes longer to write (576 MB of text) than anyone waits for
/// after Ctrl-C: the writing stops at once, the rows written stay whole, and the last line
/// says after which row it stopped. In JSON the tour's array is closed where it stopped, and
/// `truncated` says why.
#[test]
fn a_huge_tour_stops_writing_at_an_interrupt() {
    let args = [&puzzle("closed16.toml"), "--size", "8000"];
    let mut child = spawn(&args);
    let mut tap = Tap::new(&mut child, 1 << 20, libc::SIGINT);
    // Rows of the board written whole (a row of 8,000 numbers is 72,000 bytes), and the
    // last few kilobytes.
    let (mut rows, mut line) = (0usize, 0usize);
    let mut tail = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = tap.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        for &b in &buf[..n] {
            if b == b'\n' {
                rows += (line > 1000) as usize;
                line = 0;
            } else {
                line += 1;
            }
        }
        tail.extend_from_slice(&buf[..n]);
        if tail.len() > 1 << 16 {
            tail.drain(..tail.len() - 4096);
        }
    }
    let sent = tap.sent.expect("the tour was being written");
    drop(tap);
    let (code, took) = ended(child, sent);
    let tail = String::from_utf8_lossy(&tail).into_owned();
    assert_eq!(code, Some(3), "{tail}");
    assert!(took < Duration::from_secs(5), "{took:?} after Ctrl-C");
    let lines: Vec<&str> = tail.lines().collect();
    let last = lines[lines.len() - 1];
    assert_eq!(
        last,
        format!(
            "(output stopped by an interrupt after {} of 8,000 rows)",
            group(rows)
        )
    );
    assert_eq!(lines[lines.len() - 2], "1 solution");
    assert!(rows > 0 && rows < 8000, "{rows}");

    let mut child = spawn(&[args[0], args[1], args[2], "--format", "json"]);
    let mut tap = Tap::new(&mut child, 1 << 20, libc::SIGINT);
    let report: TourReport = serde_json::from_reader(&mut tap).unwrap();
    let sent = tap.sent.expect("the tour was being written");
    drop(tap);
    let (code, took) = ended(child, sent);
    assert_eq!(code, Some(3));
    assert!(took < Duration::from_secs(5), "{took:?} after Ctrl-C");
    assert_eq!(report.truncated.as_deref(), Some("interrupted"));
    assert_eq!(report.unchecked, None);
    assert_eq!(report.status, "solved");
    let tour = &report.solutions[0];
    assert!(
        tour.len() > 1000 && tour.len() < 64_000_000,
        "{}",
        tour.len()
    );
    assert!(tour.windows(2).all(|w| is_knight_move(w[0], w[1])));
}

fn group(n: usize) -> String {
    boardsolve::render::group(n as u128)
}

/// The same tour under a time limit shorter than the run: whichever phase the deadline
/// falls in (the search, the check, the writing), the run ends within moments of it with
/// exit 3 and output that says where it stopped.
#[test]
fn a_huge_tour_under_a_short_time_limit_exits_3_with_valid_output() {
    let args = [
        &puzzle("closed16.toml"),
        "--size",
        "8000",
        "--time-limit",
        "0.5",
    ];
    let started = Instant::now();
    let child = spawn(&args);
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3));
    assert!(took < Duration::from_secs(6), "{took:?}");
    let last = text.lines().last().unwrap();
    assert!(
        last == "stopped before any was counted [time limit]"
            || last
                == "(the solution found is not shown: the time limit came before its check was done)"
            || (last.starts_with("(output stopped at the time limit after ")
                && last.ends_with(" of 8,000 rows)")),
        "{last}"
    );

    let started = Instant::now();
    let mut child = spawn(&[
        args[0], args[1], args[2], args[3], args[4], "--format", "json",
    ]);
    let report: TourReport = serde_json::from_reader(child.stdout.take().unwrap()).unwrap();
    let (code, took) = ended(child, started);
    assert_eq!(code, Some(3));
    assert!(took < Duration::from_secs(6), "{took:?}");
    let time = Some("time limit");
    match (report.truncated.as_deref(), report.unchecked.as_deref()) {
        (None, None) => assert_eq!(report.status, "limit"),
        (None, t) => {
            assert_eq!(t, time);
            assert!(report.solutions.is_empty());
        }
        (t, None) => {
            assert_eq!(t, time);
            assert!(report.solutions[0].len() < 64_000_000);
        }
        _ => panic!("both truncated and unchecked"),
    }
}

/// The check of a compact tour asks to stop every few thousand squares: stopped, it says
/// so, and says nothing of the tour.
#[test]
fn the_check_of_a_compact_tour_stops_when_asked() {
    let model = model_of(
        "kind = \"tour\"\n[board]\nsize = 400\n[rules]\nclosed = true\n",
        None,
    );
    let task = Task {
        goal: Goal::First,
        ..Task::default()
    };
    let checked = model
        .solve_checked("divide", &task, Run::new(Limits::default()), 1)
        .unwrap();
    assert_eq!(checked.unchecked, None);
    let tour = checked.outcome.answer.compact.expect("a compact tour");
    let mut asked = 0;
    let stopped = model.check_compact_until(&tour, &mut || {
        asked += 1;
        (asked == 3).then_some(StopReason::Interrupted)
    });
    assert_eq!(stopped, Err(CheckError::Stopped(StopReason::Interrupted)));
    assert_eq!(model.check_compact_until(&tour, &mut || None), Ok(()));
}

/// The solutions kept for an SVG drawing count against the memory budget: past it the
/// drawing stops (the count goes on), the document is whole, and the run ends with exit 3
/// saying from which solution none is drawn.
#[test]
fn svg_keeps_solutions_within_the_memory_budget() {
    let (code, out, err) = crate::run_cli(&[
        &puzzle("latin-square.toml"),
        "--goal",
        "all",
        "--limit",
        "1000000",
        "--format",
        "svg",
        "--memory",
        "16M",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.starts_with("<svg ") && out.ends_with("</svg>\n"),
        "{err}"
    );
    assert!(err.contains("161,280 solutions"), "{err}");
    assert!(
        err.contains("are not drawn") && err.contains("memory budget (--memory)"),
        "{err}"
    );
    // One frame a board: fewer than the solutions, and within the budget.
    let boards = out.matches("stroke-width=\"3\"").count();
    assert!(boards > 0 && boards < 161_280, "{boards}");
    assert!(out.len() < 16 << 20, "{}", out.len());
}

/// Drawing stops at the time limit between two boards: the document closes with those
/// drawn, and the run ends with exit 3.
#[test]
fn svg_drawing_stops_at_the_time_limit() {
    let start = Instant::now();
    let (code, out, err) = crate::run_cli(&[
        &puzzle("latin-square.toml"),
        "--goal",
        "all",
        "--limit",
        "1000000",
        "--format",
        "svg",
        "--memory",
        "2G",
        "--time-limit",
        "0.5",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.starts_with("<svg ") && out.ends_with("</svg>\n"),
        "{err}"
    );
    // The search takes some 0.1 s, drawing its boards several seconds: the drawing is cut,
    // unless on a slow machine the search itself was.
    if err.contains("161,280 solutions") {
        assert!(err.contains("output stopped at the time limit"), "{err}");
    } else {
        assert!(err.contains("time limit"), "{err}");
    }
    assert!(out.matches("stroke-width=\"3\"").count() < 161_280);
    assert!(start.elapsed() < Duration::from_secs(30), "{err}");
}
