//! The clock of a run: when the process started, and the Ctrl-C, SIGTERM and SIGHUP (and a
//! batch system's SIGUSR1, SIGUSR2 and SIGXCPU) that stop a search as its time limit does. Loading a file and running a strategy both read it.

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
        #[cfg(unix)]
        batch_signals(&flag);
        flag
    })
    .clone()
}

/// The flag the batch signals set: the interrupt's, which lives as long as the process.
#[cfg(unix)]
static BATCH_FLAG: std::sync::atomic::AtomicPtr<AtomicBool> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// The signals a batch system sends a job before it ends it, whose default is to end the
/// process at once: SIGUSR1 and SIGUSR2 (Slurm's `--signal`, PBS's and LSF's warnings) and
/// SIGXCPU (a CPU-time limit, `ulimit -t`). They stop the run as Ctrl-C does, so that a
/// part still writes its record and a count still removes its scratch folder.
#[cfg(unix)]
fn batch_signals(flag: &Arc<AtomicBool>) {
    extern "C" fn on_signal(_: libc::c_int) {
        let p = BATCH_FLAG.load(Ordering::Relaxed);
        if !p.is_null() {
            // SAFETY: the pointer is to the interrupt flag, which is never freed (one
            // reference stays in `interrupt_flag`'s static); an atomic store is safe in a
            // signal handler.
            unsafe { (*p).store(true, Ordering::Relaxed) };
        }
    }
    BATCH_FLAG.store(Arc::as_ptr(flag).cast_mut(), Ordering::Relaxed);
    for signo in [libc::SIGUSR1, libc::SIGUSR2, libc::SIGXCPU] {
        // SAFETY: a zeroed sigaction with a handler that only stores to an atomic, and an
        // empty mask; the old action is not wanted.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signo, &action, std::ptr::null_mut());
        }
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
