//! The workers of a parallel search (`--threads`): the incumbent they share, and a pool
//! that runs one piece of work on each.
//!
//! Every worker prunes by the size of the best placement any worker has found, read at
//! every node; a worker that finds a smaller one offers it, and the smallest stands. Sound:
//! the subtrees the workers claim split the tree between them, each is searched by one
//! worker, and a worker prunes only what cannot hold a placement smaller than a bar some
//! worker's placement has reached, so no placement smaller than the final bar is missed.
//!
//! Donation (`Donations`): a few subtrees of the list hold most of the work, so when the
//! list runs dry a worker with nothing left waits as *hungry*, and a busy worker that sees
//! one (it looks every `DONATE_EVERY` nodes, one relaxed load) hands the untried siblings of
//! its shallowest open node over as subtrees of their own and stops before them (see
//! `Search::donate`). Sound: each donated sibling is searched once, by whoever claims it,
//! from the node the donor would have made for it; the donor no longer goes there.

use super::stack::Subtree;
use crate::engine::{Run, Standing};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Nodes between a worker's looks at the hungry count (a power of 2).
pub const DONATE_EVERY: u32 = 1 << 10;

/// The best placement found by any worker; `bar` is its size, read at every node. Also how
/// many of the `total` subtrees are done, for the progress line.
pub struct Incumbent {
    bar: AtomicUsize,
    best: Mutex<Option<Vec<usize>>>,
    done: AtomicUsize,
    total: AtomicUsize,
    /// The subtrees busy workers handed over, for the idle ones.
    pub donations: Donations,
}

impl Incumbent {
    /// No placement yet; placements must have fewer than `bar` pieces to matter; `total`
    /// subtrees listed, searched on `threads` workers, which donate where `donate` (see
    /// `bnb.donate`).
    pub fn new(bar: usize, total: usize, threads: usize, donate: bool) -> Incumbent {
        Incumbent {
            bar: AtomicUsize::new(bar),
            best: Mutex::new(None),
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(total),
            donations: Donations::new(threads, total, donate),
        }
    }

    /// The size placements must stay below.
    #[inline]
    pub fn bar(&self) -> usize {
        self.bar.load(Ordering::Relaxed)
    }

    /// A worker's covering placement: kept if it is the smallest so far.
    pub fn offer(&self, placed: &[usize]) {
        let k = placed.len();
        let mut best = self.best.lock().expect("no worker panicked");
        if best.as_ref().is_none_or(|b| k < b.len()) {
            *best = Some(placed.to_vec());
            self.bar.fetch_min(k, Ordering::Relaxed);
        }
    }

    /// One more subtree searched to the end.
    pub fn done_one(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// The progress line of parallel minimize: the best size among the workers, the root
    /// bound, the subtrees done.
    pub fn standing(&self, root_bound: usize) -> Standing {
        Standing {
            best: Some(self.bar() as u64),
            bound: Some(root_bound as u64),
            subtrees: Some((
                self.done.load(Ordering::Relaxed),
                self.total.load(Ordering::Relaxed),
            )),
            ..Standing::default()
        }
    }

    /// The smallest placement offered, if any.
    pub fn into_best(self) -> Option<Vec<usize>> {
        self.best.into_inner().expect("no worker panicked")
    }
}

/// What a search keeps of its part in a pool: the shared incumbent, whether it keeps the
/// progress line, its node count for that line and for donation, and the trace of its
/// pieces where one is kept (see `trace`).
pub struct Worker<'a> {
    pub shared: &'a Incumbent,
    pub reporter: bool,
    pub ticks: u32,
    /// `Job::donate_every` less 1: the worker looks at the hungry count when `ticks & mask`
    /// is 0.
    pub donate_mask: u32,
    pub trace: Option<Trace>,
}

/// A donated subtree and its number among the pieces of the run (the list's subtrees are
/// 0 .. list length, donated ones follow).
pub struct Piece {
    pub t: Subtree,
    pub id: usize,
}

struct Queue {
    pieces: VecDeque<Piece>,
    /// Workers waiting in `take`.
    idle: usize,
    /// Every worker idle with nothing queued, or a limit stopped the search: no more work.
    done: bool,
}

/// The subtrees busy workers donated and the workers waiting for them.
pub struct Donations {
    threads: usize,
    enabled: bool,
    queue: Mutex<Queue>,
    wake: Condvar,
    /// Idle workers less queued pieces: a busy worker donates while this is above 0.
    hungry: AtomicUsize,
    /// Pieces numbered so far (from the list's length on, set by the pool).
    next_id: AtomicUsize,
    /// Donations made and subtrees donated (statistics).
    pub donations: AtomicU64,
    pub donated: AtomicU64,
}

impl Donations {
    /// Pieces are numbered from `first` on (the list's length); no worker donates unless
    /// `enabled`.
    fn new(threads: usize, first: usize, enabled: bool) -> Donations {
        Donations {
            threads,
            enabled,
            queue: Mutex::new(Queue {
                pieces: VecDeque::new(),
                idle: 0,
                done: false,
            }),
            wake: Condvar::new(),
            hungry: AtomicUsize::new(0),
            next_id: AtomicUsize::new(first),
            donations: AtomicU64::new(0),
            donated: AtomicU64::new(0),
        }
    }

    /// Whether a worker waits with nothing to do (read every `DONATE_EVERY` nodes).
    #[inline]
    pub fn hungry(&self) -> bool {
        self.hungry.load(Ordering::Relaxed) > 0
    }

    fn set_hungry(&self, q: &Queue) {
        let h = if self.enabled {
            q.idle.saturating_sub(q.pieces.len())
        } else {
            0
        };
        self.hungry.store(h, Ordering::Relaxed);
    }

    /// A worker whose list ran dry: the next donated piece, waiting for one while other
    /// workers are busy; `None` when there is no more work (every worker idle, or stopped).
    pub fn take(&self) -> Option<Piece> {
        let mut q = self.queue.lock().expect("no worker panicked");
        loop {
            if q.done {
                return None;
            }
            if let Some(p) = q.pieces.pop_front() {
                self.set_hungry(&q);
                return Some(p);
            }
            if q.idle + 1 >= self.threads {
                // Nobody busy, so nobody can donate: the search is over.
                q.done = true;
                self.wake.notify_all();
                return None;
            }
            q.idle += 1;
            self.set_hungry(&q);
            q = self.wake.wait(q).expect("no worker panicked");
            q.idle -= 1;
            self.set_hungry(&q);
        }
    }

    /// Number `subtrees` and queue them for the idle workers; the numbers given, the first
    /// and how many.
    pub fn give(&self, subtrees: Vec<Subtree>, shared: &Incumbent) -> (usize, usize) {
        let n = subtrees.len();
        let first = self.next_id.fetch_add(n, Ordering::Relaxed);
        shared.total.fetch_add(n, Ordering::Relaxed);
        self.donations.fetch_add(1, Ordering::Relaxed);
        self.donated.fetch_add(n as u64, Ordering::Relaxed);
        let mut q = self.queue.lock().expect("no worker panicked");
        q.pieces.extend(
            subtrees
                .into_iter()
                .enumerate()
                .map(|(i, t)| Piece { t, id: first + i }),
        );
        self.set_hungry(&q);
        self.wake.notify_all();
        (first, n)
    }

    /// A limit stopped a worker: the others waiting stop too.
    pub fn stop(&self) {
        let mut q = self.queue.lock().expect("no worker panicked");
        q.done = true;
        self.set_hungry(&q);
        self.wake.notify_all();
    }
}

/// The instrument behind the replay of docs/performance.md: given a path (`Model::trace`,
/// which the `solve` binary takes from `BOARDSOLVE_BNB_TRACE=FILE`), a pool writes one line
/// per piece (list subtree or donated one) it searched: its number, the piece it was donated
/// from and the CPU time into that piece when it was, its own CPU time, nodes and worker.
/// CPU time of the thread, so a run with more threads than cores still measures each
/// piece's work.
pub struct Trace {
    /// The piece being searched and the thread's CPU time when it began (ns).
    pub piece: usize,
    pub start: u64,
    /// Donations made from the current piece so far: (first number, count, CPU offset).
    pub gave: Vec<(usize, usize, u64)>,
}

pub struct TraceLine {
    pub piece: usize,
    pub worker: usize,
    pub cpu_ns: u64,
    pub nodes: u64,
    pub gave: Vec<(usize, usize, u64)>,
}

/// The CPU time of this thread in ns (Linux: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`;
/// elsewhere the wall clock since the first call). Read only by
/// the trace, a few times a piece.
pub fn thread_cpu_ns() -> u64 {
    #[cfg(target_os = "linux")]
    {
        let mut tp = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `tp` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut tp) } == 0 {
            return tp.tv_sec as u64 * 1_000_000_000 + tp.tv_nsec as u64;
        }
    }
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

/// The trace lines of every worker, written to `path`: a header, then per piece
/// `piece worker cpu_ns nodes` and its donations as `first+count@offset_ns`.
pub fn write_trace(path: &std::path::Path, list: usize, threads: usize, lines: &[TraceLine]) {
    use std::fmt::Write;
    let mut out = format!("# bnb pieces: list {list} threads {threads}\n");
    for l in lines {
        let _ = write!(out, "{} {} {} {}", l.piece, l.worker, l.cpu_ns, l.nodes);
        for (first, n, at) in &l.gave {
            let _ = write!(out, " {first}+{n}@{at}");
        }
        out.push('\n');
    }
    // Best effort: a measuring instrument, whose failure to write leaves the search and its
    // answer as they are; the library prints nothing, so the error is dropped.
    let _ = std::fs::write(path, out);
}

/// Run `work` on `threads` workers, each made by `make` (given its index) on its own
/// thread; this thread is worker 0, so the progress line stays live. The other workers'
/// runs are children of `run`, their statistics absorbed at the end. The workers' results,
/// in order.
pub fn on_workers<W, T: Send>(
    threads: usize,
    run: &mut Run,
    make: impl Fn(usize) -> W + Sync,
    work: impl Fn(usize, &mut W, &mut Run) -> T + Sync,
) -> Vec<T> {
    let mut children: Vec<Run<'static>> = (1..threads).map(|_| run.child()).collect();
    // Scoped threads, not rayon: an idle worker blocks in `Donations::take` until a busy one
    // donates, which deadlocks wherever a pool runs fewer threads than workers.
    let out = std::thread::scope(|scope| {
        let handles: Vec<_> = children
            .iter_mut()
            .enumerate()
            .map(|(i, child)| {
                let (work, make) = (&work, &make);
                scope.spawn(move || work(i + 1, &mut make(i + 1), child))
            })
            .collect();
        let mut s = make(0);
        let mut out = vec![work(0, &mut s, run)];
        out.extend(
            handles
                .into_iter()
                .map(|h| h.join().expect("no worker panicked")),
        );
        out
    });
    for child in children {
        run.absorb(child);
    }
    out
}
