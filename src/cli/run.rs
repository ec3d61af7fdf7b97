//! One strategy run as the command line runs it: Ctrl-C, the progress line, and every
//! solution checked on its way out.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::mpsc;
use std::time::Duration;

use boardsolve::engine::{Clock, Gauge, Limits, Run};
use boardsolve::kinds::{Checked, SolveError};
use boardsolve::render;

pub(crate) use super::clock::clock;
use super::load::Loaded;

/// How often the progress line is drawn again.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// Draw the progress line from `gauge` until `done` says the search ended: a thread of its
/// own, so the line moves at every thread count, whoever is searching. The line is kept a
/// few columns short of the terminal's width, so that it never wraps, not even when the
/// terminal echoes `^C` after it: one carriage return and erase then clear it at the end.
fn show_progress(gauge: &Gauge, done: &mpsc::Receiver<()>) {
    const FRAMES: [char; 8] = ['⠁', '⠂', '⠄', '⡀', '⢀', '⠠', '⠐', '⠈'];
    let mut err = std::io::stderr();
    let mut frame = 0;
    while let Err(mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(PROGRESS_EVERY) {
        // The frame and its space take two columns.
        let width = terminal_width().unwrap_or(80).saturating_sub(5);
        let line = format!(
            "{} {}",
            FRAMES[frame % FRAMES.len()],
            render::progress_line_within(&gauge.read(), width)
        );
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
        frame += 1;
    }
    if frame > 0 {
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
    }
}

/// The width of the terminal on standard error, in columns.
fn terminal_width() -> Option<usize> {
    // SAFETY: a zeroed winsize is a valid value of the plain C struct.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one winsize into the struct it is given, which outlives the
    // call.
    let r = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) };
    (r == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// Run one strategy under `clock` and, with `progress`, the progress line; each solution (goals first
/// and all) goes to `show` once checked.
pub(crate) fn run_one(
    l: &Loaded,
    strategy: &str,
    limits: Limits,
    clock: Clock,
    progress: bool,
    show: impl FnMut(&[usize]) -> ControlFlow<()> + Send,
) -> Result<Checked, SolveError> {
    let run = Run::new(limits).with_clock(clock);
    if !progress {
        return l.model.solve_checked_with(strategy, &l.task, run, show);
    }
    let gauge = run.gauge();
    let (done, ended) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || show_progress(&gauge, &ended));
        let checked = l.model.solve_checked_with(strategy, &l.task, run, show);
        let _ = done.send(());
        checked
    })
}
