//! The clock of a run: when the process started, and the Ctrl-C, SIGTERM and SIGHUP that
//! stop a search as its time limit does. Loading a file and running a strategy both read it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use boardsolve::engine::Clock;

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
