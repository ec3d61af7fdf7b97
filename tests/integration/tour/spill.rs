//! `--scratch`: a frontier count whose states outgrow `--memory` spills them to a folder of
//! its own inside the one named, and removes it whichever way the run ends.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::fifo::{finish, interrupt, spawn};
use crate::run_cli;

/// An empty folder of the test's own.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("boardsolve-scratch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn entries(dir: &PathBuf) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn a_count_past_its_memory_spills_and_counts_the_published_number() {
    // 8x6 closed holds about 10 MB of states at its widest squares.
    let dir = scratch("count");
    let closed = crate::puzzle("closed6x6-count.toml");
    for threads in ["1", "2"] {
        let args = [
            &closed[..],
            "--width",
            "8",
            "--height",
            "6",
            "--memory",
            "8M",
            "--threads",
            threads,
            "--scratch",
            dir.to_str().unwrap(),
        ];
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("55,488,142 solutions"), "{out}");
        assert!(err.contains("outgrew the memory and went through"), "{err}");
        assert_eq!(entries(&dir), 0, "scratch files left");
        // The JSON report says it too, in numbers.
        let (code, json, err) = run_cli(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let spill = &v["spill"];
        assert!(
            spill["folder"]
                .as_str()
                .unwrap()
                .contains("boardsolve-spill-")
        );
        assert!(spill["squares"].as_u64().unwrap() > 0, "{spill}");
        let written = spill["written_bytes"].as_u64().unwrap();
        assert!(spill["peak_bytes"].as_u64().unwrap() <= written, "{spill}");
        assert!(spill["read_bytes"].as_u64().unwrap() > 0, "{spill}");
        // Without a scratch folder the same count stops at the budget.
        let mut off = args.to_vec();
        *off.last_mut().unwrap() = "off";
        let (code, out, err) = run_cli(&off);
        assert_eq!(code, 3, "{out}{err}");
        assert!(
            err.contains("the frontier outgrew the memory at square"),
            "{err}"
        );
        let (_, json, _) = run_cli(&[&off[..], &["--format", "json"]].concat());
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(v.get("spill").is_none(), "{json}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A part of an open count (one pair of ends' sweep) spills as a whole count does, says
/// so, and counts what it counts in memory.
#[test]
fn a_part_past_its_memory_spills_and_says_so() {
    let dir = scratch("part");
    let open = crate::puzzle("tour5x5.toml");
    let args = [
        &open[..],
        "--width",
        "8",
        "--height",
        "6",
        "--strategy",
        "count",
        "--part",
        "1/156",
        "--threads",
        "1",
        "--memory",
        "8M",
        "--scratch",
        dir.to_str().unwrap(),
    ];
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("outgrew the memory and went through"), "{err}");
    assert_eq!(entries(&dir), 0, "scratch files left");
    let in_memory = [&args[..11], &["--scratch", "off"]].concat();
    let (code, whole, err) = run_cli(&in_memory);
    assert_eq!(code, 0, "{whole}{err}");
    assert!(!err.contains("went through"), "{err}");
    assert_eq!(out, whole);
    assert!(out.contains("521,271,760 solutions in this part"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peak resident memory of `solve` run with `args`, in KiB, and its exit code: the
/// high-water mark of its own memory (VmHWM), read until it exits. Not the rusage of the
/// child: that holds the peak of the test process it was spawned from, which runs many
/// tests at once.
fn peak_memory(args: &[&str]) -> (i32, u64) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        // Read before the check, so the last reading is of the exited process's final
        // mark wherever it is still readable.
        if let Ok(text) = std::fs::read_to_string(&status)
            && let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kib);
        }
        if let Some(exit) = child.try_wait().unwrap() {
            return (exit.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A spilling count's resident memory stays near its budget: the allocator's freed blocks
/// go back to the system instead of piling up in the threads' arenas. (This part at 64M on
/// two threads peaked at 100-118 MB with them kept, 72-74 MB with them given back.)
#[test]
fn a_spilling_count_holds_its_memory_near_its_budget() {
    let dir = scratch("resident");
    let open = crate::puzzle("tour5x5.toml");
    let (code, peak) = peak_memory(&[
        &open,
        "--width",
        "8",
        "--height",
        "6",
        "--strategy",
        "count",
        "--part",
        "1/10",
        "--threads",
        "2",
        "--memory",
        "64M",
        "--scratch",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(entries(&dir), 0, "scratch files left");
    // The budget counts the lists of states; the program, the threads' stacks and the
    // buffers of the scratch files come on top.
    let allowed = (64 << 10) * 5 / 4;
    assert!(peak <= allowed, "peak {peak} KiB, allowed {allowed} KiB");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scratch_folder_that_is_not_one_is_refused() {
    let dir = scratch("bad");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    for bad in [dir.join("missing"), file] {
        let (code, _, err) = run_cli(&[
            &crate::puzzle("closed6x6-count.toml"),
            "--scratch",
            bad.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("--scratch") && err.contains("not a folder"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_scratch_folder_no_one_can_write_in_is_refused_before_the_run() {
    // /proc refuses new folders even to root, so the spill would fail at its first square.
    let (code, out, err) = run_cli(&[&crate::puzzle("closed6x6-count.toml"), "--scratch", "/proc"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--scratch /proc: cannot create a folder in it"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
}

/// Ctrl-C, and a batch system's CPU-time limit (SIGXCPU), while states are on disk.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_while_spilling_leaves_no_scratch_files() {
    for signo in [libc::SIGINT, libc::SIGXCPU] {
        let dir = scratch(&format!("interrupt-{signo}"));
        let closed = crate::puzzle("closed6x6-count.toml");
        let mut child = spawn(&[
            &closed,
            "--width",
            "8",
            "--height",
            "7",
            "--memory",
            "8M",
            "--scratch",
            dir.to_str().unwrap(),
        ]);
        // Interrupted once its folder holds states.
        let started = Instant::now();
        let spilled = loop {
            let files: usize = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| std::fs::read_dir(e.path()).map_or(0, |d| d.count()))
                .sum();
            if files > 0 || started.elapsed() > Duration::from_secs(60) {
                break files > 0;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if signo == libc::SIGINT {
            interrupt(&mut child);
        } else {
            // The handlers are in place before the count starts, so before it spills.
            // SAFETY: a signal to a child of this process, not yet waited for.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signo) }, 0);
        }
        let (status, out, err) = finish(child, 60);
        assert!(spilled, "no states went to disk: {err}");
        assert_eq!(status.code(), Some(3), "{signo}: {out}{err}");
        assert!(out.contains("[interrupted]"), "{out}");
        assert_eq!(entries(&dir), 0, "scratch files left");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A file-size limit (`ulimit -f`) passed by a spill's file stops the count, which says
/// why and removes its folder, instead of ending the process where it stands.
#[cfg(target_os = "linux")]
#[test]
fn a_file_size_limit_stops_a_spill_cleanly() {
    let dir = scratch("fsize");
    let solve = assert_cmd::cargo::cargo_bin("solve");
    let closed = crate::puzzle("closed6x6-count.toml");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(
            "ulimit -f 256 && exec \"$0\" \"$1\" --width 8 --height 6 --memory 8M --threads 1 \
             --scratch \"$2\"",
        )
        .args([
            solve.as_os_str(),
            std::ffi::OsStr::new(&closed),
            dir.as_os_str(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(entries(&dir), 0, "scratch files left");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_part_stopped_by_its_scratch_folder_says_so_in_its_record() {
    let dir = scratch("fsize-part");
    let record = dir.join("part-1.jsonl");
    let solve = assert_cmd::cargo::cargo_bin("solve");
    let open = crate::puzzle("tour5x5.toml");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(
            "ulimit -f 256 && exec \"$0\" \"$1\" --width 8 --height 6 --strategy count \
             --memory 8M --threads 1 --part 1/156 --scratch \"$2\" --record \"$3\"",
        )
        .args([
            solve.as_os_str(),
            std::ffi::OsStr::new(&open),
            dir.as_os_str(),
            record.as_os_str(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("[scratch folder]"), "{err}");
    let line = std::fs::read_to_string(&record).unwrap();
    assert!(line.contains("\"stopped\":\"disk\""), "{line}");
    let (code, _, err) = run_cli(&["merge", record.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("part 1/156 stopped by its scratch folder"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 8x6 closed at 8M with `TMPDIR` set to `tmpdir`, which should send the spill to /tmp.
fn spills_to_tmp_with_tmpdir(tmpdir: &str, more: &[&str]) {
    let out = assert_cmd::Command::cargo_bin("solve")
        .unwrap()
        .env("TMPDIR", tmpdir)
        .args([
            &crate::puzzle("closed6x6-count.toml")[..],
            "--width",
            "8",
            "--height",
            "6",
            "--memory",
            "8M",
        ])
        .args(more)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.contains("55,488,142 solutions"), "{out}{err}");
    assert!(err.contains("went through /tmp/boardsolve-spill-"), "{err}");
}

#[test]
fn a_tmpdir_that_names_no_folder_spills_to_tmp() {
    if !std::path::Path::new("/tmp").is_dir() {
        return;
    }
    spills_to_tmp_with_tmpdir("/nonexistent/boardsolve-test", &[]);
}

/// A TMPDIR no one can make a folder in (/proc) is passed over for /tmp before the run,
/// as temporary files are placed, rather than failing the count at its first spill.
#[test]
fn a_tmpdir_no_one_can_write_in_spills_to_tmp() {
    if !std::path::Path::new("/tmp").is_dir() || !std::path::Path::new("/proc").is_dir() {
        return;
    }
    spills_to_tmp_with_tmpdir("/proc", &["--threads", "2"]);
}

/// A scratch folder's name with a line break in it stays on the summary's one line.
#[test]
fn a_scratch_path_with_a_line_break_is_shown_on_one_line() {
    let dir = scratch("line\nbreak");
    let (code, out, err) = run_cli(&[
        &crate::puzzle("closed6x6-count.toml"),
        "--width",
        "8",
        "--height",
        "6",
        "--memory",
        "8M",
        "--scratch",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let line = err
        .lines()
        .find(|l| l.contains("went through"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("line\\nbreak"), "{line}");
    assert!(line.contains("removed at the end"), "{line}");
    assert_eq!(entries(&dir), 0, "scratch files left");
    let _ = std::fs::remove_dir_all(&dir);
}
