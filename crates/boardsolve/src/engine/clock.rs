//! When a run must stop: its deadline and the interrupt flag (Ctrl-C, SIGTERM, SIGHUP).
//!
//! A search cannot read the clock at every node, and counting nodes between reads fails
//! where one node is slow (a wide exact cover, a branch and bound on a large board). So a
//! watchdog thread advances a tick a few times a second, and every loop that must stop in
//! time compares that tick with the last one it saw: one relaxed load and a comparison. Only
//! when the tick moved does it read the clock and the flag. The same clock serves the phases
//! around the search (building the model, checking and writing the answer), so each of them
//! stops within a tick of the deadline too.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use super::StopReason;

/// How often the watchdog advances the tick: the delay between a deadline or an interrupt
/// and the loops noticing it, plus one step of theirs.
pub const TICK: Duration = Duration::from_millis(50);

#[derive(Debug)]
struct Inner {
    start: Instant,
    deadline: Option<Instant>,
    interrupted: Option<Arc<AtomicBool>>,
    tick: AtomicU64,
}

/// A deadline and an interrupt flag, shared by a run, its parallel children and the phases
/// around it. Cloning shares it.
#[derive(Clone, Debug)]
pub struct Clock {
    inner: Arc<Inner>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new(None, None)
    }
}

impl Clock {
    /// A clock whose deadline lies `time` from now; with a deadline or a flag to watch, a
    /// watchdog thread ticks until the last clone is dropped.
    pub fn new(time: Option<Duration>, interrupted: Option<Arc<AtomicBool>>) -> Clock {
        Clock::since(Instant::now(), time, interrupted)
    }

    /// A clock whose deadline lies `time` after `start` (the start of a process whose reading
    /// of its input counts too).
    pub fn since(
        start: Instant,
        time: Option<Duration>,
        interrupted: Option<Arc<AtomicBool>>,
    ) -> Clock {
        let clock = Clock {
            inner: Arc::new(Inner {
                start,
                deadline: time.and_then(|t| start.checked_add(t)),
                interrupted,
                tick: AtomicU64::new(0),
            }),
        };
        if clock.inner.deadline.is_some() || clock.inner.interrupted.is_some() {
            let weak = Arc::downgrade(&clock.inner);
            // Without a thread the tick stays still and loops fall back to their node counts.
            let _ = std::thread::Builder::new()
                .name("boardsolve-clock".into())
                .spawn(move || watch(weak));
        }
        clock
    }

    /// When the clock started (the deadline counts from here).
    pub fn start(&self) -> Instant {
        self.inner.start
    }

    /// The watchdog's tick: a loop that sees it move asks [`Clock::expired`].
    #[inline(always)]
    pub fn tick(&self) -> u64 {
        self.inner.tick.load(Ordering::Relaxed)
    }

    /// Why to stop now, if at all: the deadline passed or the flag was raised.
    pub fn expired(&self) -> Option<StopReason> {
        if let Some(d) = self.inner.deadline
            && Instant::now() >= d
        {
            return Some(StopReason::Time);
        }
        if let Some(f) = &self.inner.interrupted
            && f.load(Ordering::Relaxed)
        {
            return Some(StopReason::Interrupted);
        }
        None
    }

    /// A cheap test for loops outside a search (building, checking, writing): see
    /// [`Watch::stop`].
    pub fn watch(&self) -> Watch<'_> {
        Watch {
            clock: self,
            seen: self.tick(),
        }
    }
}

/// One loop's view of a [`Clock`]: the tick it last saw.
pub struct Watch<'c> {
    clock: &'c Clock,
    seen: u64,
}

impl Watch<'_> {
    /// Why to stop, if the tick moved and the clock says so; call it once a step.
    #[inline]
    pub fn stop(&mut self) -> Option<StopReason> {
        let t = self.clock.tick();
        if t == self.seen {
            return None;
        }
        self.seen = t;
        self.clock.expired()
    }
}

fn watch(clock: Weak<Inner>) {
    loop {
        std::thread::sleep(TICK);
        let Some(inner) = clock.upgrade() else {
            return;
        };
        inner.tick.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_sees_the_deadline_within_ticks() {
        let clock = Clock::new(Some(Duration::from_millis(120)), None);
        let mut w = clock.watch();
        let start = Instant::now();
        let reason = loop {
            if let Some(r) = w.stop() {
                break r;
            }
            std::hint::spin_loop();
        };
        assert_eq!(reason, StopReason::Time);
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(120), "{took:?}");
        assert!(took < Duration::from_millis(120) + 10 * TICK, "{took:?}");
    }

    #[test]
    fn an_interrupt_is_seen_at_the_next_tick() {
        let flag = Arc::new(AtomicBool::new(false));
        let clock = Clock::new(None, Some(Arc::clone(&flag)));
        let mut w = clock.watch();
        assert_eq!(w.stop(), None);
        flag.store(true, Ordering::Relaxed);
        let reason = loop {
            if let Some(r) = w.stop() {
                break r;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(reason, StopReason::Interrupted);
    }

    #[test]
    fn without_a_deadline_or_flag_nothing_ticks() {
        let clock = Clock::default();
        std::thread::sleep(2 * TICK);
        assert_eq!(clock.tick(), 0);
        assert_eq!(clock.expired(), None);
    }
}
