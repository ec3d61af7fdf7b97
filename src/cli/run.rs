//! One strategy run as the command line runs it: Ctrl-C, the progress spinner, and every
//! solution checked on its way out.

use std::ops::ControlFlow;
use std::time::Duration;

use boardsolve::engine::{Clock, Limits, Progress, Run, Standing, Stats};
use boardsolve::kinds::{Checked, SolveError};
use boardsolve::render;

pub(crate) use super::clock::clock;
use super::load::Loaded;

struct Spinner(indicatif::ProgressBar);

impl Progress for Spinner {
    fn update(&mut self, stats: &Stats, elapsed: Duration, standing: &Standing) {
        let status = render::standing_text(standing);
        let rate = stats.nodes as f64 / elapsed.as_secs_f64().max(1e-9);
        // Branch and bound spends tens of microseconds a node: M/s would read 0.0.
        let rate = if rate >= 1e6 {
            format!("{:.1} M/s", rate / 1e6)
        } else {
            format!("{:.1} k/s", rate / 1e3)
        };
        // An optimisation reports its best so far in `status`; a count of 0 says nothing.
        let solutions = if stats.solutions == 0 && !status.is_empty() {
            String::new()
        } else {
            format!(" | {} solutions", render::group(stats.solutions))
        };
        self.0.set_message(format!(
            "{} nodes ({rate}){solutions}{}{}",
            render::group(stats.nodes as u128),
            if status.is_empty() { "" } else { " | " },
            status
        ));
        self.0.tick();
    }
    fn finish(&mut self) {
        self.0.finish_and_clear();
    }
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
