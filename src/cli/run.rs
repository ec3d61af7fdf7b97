//! One strategy run as the command line runs it: Ctrl-C, the progress spinner, and every
//! solution checked on its way out.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use boardsolve::engine::{Clock, Limits, Progress, Run, Standing, Stats};
use boardsolve::kinds::{Checked, SolveError};
use boardsolve::render;

use super::load::Loaded;

pub(crate) fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = Arc::clone(&flag);
        // Without a handler Ctrl-C kills the process; with it the search stops at its next
        // check and the best so far is still printed (exit 3).
        let _ = ctrlc::set_handler(move || f.store(true, Ordering::Relaxed));
        flag
    })
    .clone()
}

struct Spinner(indicatif::ProgressBar);

impl Progress for Spinner {
    fn update(&mut self, stats: &Stats, elapsed: Duration, standing: &Standing) {
        self.0
            .set_message(render::progress_text(stats, elapsed, standing));
        self.0.tick();
    }
    fn finish(&mut self) {
        self.0.finish_and_clear();
    }
}

/// When the process started: a solve's time limit counts from here, reading the file
/// included.
pub(crate) fn process_start() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

/// A clock with this time limit from now that Ctrl-C, SIGTERM and SIGHUP stop too.
pub(crate) fn clock(time: Option<f64>) -> Clock {
    clock_since(Instant::now(), time)
}

/// The same from `start`.
pub(crate) fn clock_since(start: Instant, time: Option<f64>) -> Clock {
    Clock::since(
        start,
        time.map(Duration::from_secs_f64),
        Some(interrupt_flag()),
    )
}

/// Run one strategy under `clock` and, on a terminal, the spinner; each solution (goals first
/// and all) goes to `show` once checked.
pub(crate) fn run_one(
    l: &Loaded,
    strategy: &str,
    limits: Limits,
    clock: Clock,
    progress: bool,
    show: impl FnMut(&[usize]) -> ControlFlow<()> + Send,
) -> Result<Checked, SolveError> {
    let mut run = Run::new(limits).with_clock(clock);
    if progress {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        run = run.with_progress(Box::new(Spinner(bar)));
    }
    l.model.solve_checked_with(strategy, &l.task, run, show)
}
