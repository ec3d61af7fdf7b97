//! Puzzle files that are not regular files: a fifo whose writer is late or never comes, and
//! the pipe of a shell's process substitution. Opening and reading watch the time limit and
//! Ctrl-C; a fifo written in the end, or `solve <(gen)`, reads as a file does.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::puzzle;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardsolve-fifo-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path that lives through the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// The fifo opened for writing once a reader has it open (never waiting past 20 s).
fn open_writer(fifo: &Path) -> std::fs::File {
    use std::os::unix::fs::OpenOptionsExt;
    let started = Instant::now();
    loop {
        // Without O_NONBLOCK the open would wait for a reader for good.
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo)
        {
            Ok(f) => return f,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                assert!(started.elapsed().as_secs() < 20, "no reader after 20 s");
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("{e}"),
        }
    }
}

pub(crate) fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The child's exit and its standard output and error; killed, and the test failed, when it
/// runs past `secs` seconds.
pub(crate) fn finish(mut child: Child, secs: u64) -> (ExitStatus, String, String) {
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed().as_secs() > secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, out, err)
}

/// Wait until the child has its SIGINT handler (Ctrl-C before it kills the process outright);
/// killed, and the test failed, where none comes.
#[cfg(target_os = "linux")]
fn wait_for_sigint_handler(child: &mut Child) {
    let started = Instant::now();
    loop {
        // Gone already (an error at once): `finish` says what it wrote.
        let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) else {
            return;
        };
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
            .unwrap_or(0);
        if caught & (1 << (libc::SIGINT - 1)) != 0 {
            return;
        }
        if started.elapsed().as_secs() > 20 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no SIGINT handler after 20 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(target_os = "linux")]
pub(crate) fn interrupt(child: &mut Child) {
    wait_for_sigint_handler(child);
    // SAFETY: a signal to a child of this process, which has not been waited for yet.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
}

#[test]
fn a_fifo_without_a_writer_stops_at_the_time_limit() {
    let dir = temp_dir("time");
    let fifo = dir.join("puzzle.toml");
    mkfifo(&fifo);
    let path = fifo.to_str().unwrap();
    let started = Instant::now();
    let (status, _, err) = finish(spawn(&[path, "--time-limit", "0.5"]), 20);
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{path}: key `--time-limit`: reading stopped at the time limit of 0.5 s, 0 bytes read"
        )),
        "{err}"
    );
    assert!(started.elapsed().as_secs_f64() < 5.0, "{err}");
    // Puzzles a line: the run's summary, stopped before any line, exit 3.
    let (status, _, err) = finish(
        spawn(&[path, "--input", "lines", "--time-limit", "0.5"]),
        20,
    );
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(
        err.contains("stopped (time limit): no line answered"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_fifo_without_a_writer_or_without_an_end_stops_on_ctrl_c() {
    let dir = temp_dir("interrupt");
    let fifo = dir.join("puzzle.toml");
    mkfifo(&fifo);
    let path = fifo.to_str().unwrap();
    let mut child = spawn(&[path]);
    interrupt(&mut child);
    let (status, _, err) = finish(child, 20);
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{path}: reading stopped by an interrupt (Ctrl-C, SIGTERM or SIGHUP), 0 bytes read; \
             nothing was solved"
        )),
        "{err}"
    );
    // A writer that sends part of the puzzle and holds the fifo open.
    let mut child = spawn(&[path]);
    let mut writer = open_writer(&fifo);
    writer.write_all(b"kind = \"independent\"\n").unwrap();
    interrupt(&mut child);
    let (status, _, err) = finish(child, 20);
    drop(writer);
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{path}: reading stopped by an interrupt")),
        "{err}"
    );
    // Puzzles a line: the run's summary says what stopped it.
    let mut child = spawn(&[path, "--input", "lines"]);
    interrupt(&mut child);
    let (status, _, err) = finish(child, 20);
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("stopped (interrupted)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_written_late_and_a_process_substitution_are_read_whole() {
    let dir = temp_dir("late");
    let fifo = dir.join("puzzle.toml");
    mkfifo(&fifo);
    let path = fifo.to_str().unwrap();
    let text = std::fs::read(puzzle("queens8.toml")).unwrap();
    let child = spawn(&[path, "--goal", "count"]);
    // The writer comes after the reader has waited a while (a read before it would see an
    // empty file).
    std::thread::sleep(Duration::from_millis(300));
    let mut writer = open_writer(&fifo);
    writer.write_all(&text).unwrap();
    drop(writer);
    let (status, out, err) = finish(child, 20);
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(out.contains("92 solutions"), "{out}");
    // `solve <(gen)`: the pipe of a process substitution.
    let bin = assert_cmd::cargo::cargo_bin("solve");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' <(sleep 0.2; cat '{}') --goal count",
            bin.display(),
            puzzle("queens8.toml")
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("92 solutions"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
