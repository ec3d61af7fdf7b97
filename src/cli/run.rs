//! One strategy run as the command line runs it: Ctrl-C, the progress line, and every
//! solution checked on its way out.

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
/// own, so the line moves at every thread count, whoever is searching.
fn show_progress(gauge: &Gauge, done: &mpsc::Receiver<()>) {
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    while let Err(mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(PROGRESS_EVERY) {
        bar.set_message(render::progress_line(&gauge.read()));
        bar.tick();
    }
    bar.finish_and_clear();
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
