//! The workers of a parallel search (`--threads`): the incumbent they share, and a pool
//! that runs one piece of work on each.
//!
//! Every worker prunes by the size of the best placement any worker has found, read at
//! every node; a worker that finds a smaller one offers it, and the smallest stands. Sound:
//! the subtrees the workers claim split the tree between them, each is searched by one
//! worker, and a worker prunes only what cannot hold a placement smaller than a bar some
//! worker's placement has reached, so no placement smaller than the final bar is missed.

use crate::engine::{Run, Standing};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The best placement found by any worker; `bar` is its size, read at every node. Also how
/// many of the `total` subtrees are done, for the progress line.
pub struct Incumbent {
    bar: AtomicUsize,
    best: Mutex<Option<Vec<usize>>>,
    done: AtomicUsize,
    total: usize,
}

impl Incumbent {
    /// No placement yet; placements must have fewer than `bar` pieces to matter.
    pub fn new(bar: usize, total: usize) -> Incumbent {
        Incumbent {
            bar: AtomicUsize::new(bar),
            best: Mutex::new(None),
            done: AtomicUsize::new(0),
            total,
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
            subtrees: Some((self.done.load(Ordering::Relaxed), self.total)),
            ..Standing::default()
        }
    }

    /// The smallest placement offered, if any.
    pub fn into_best(self) -> Option<Vec<usize>> {
        self.best.into_inner().expect("no worker panicked")
    }
}

/// What a search keeps of its part in a pool: the shared incumbent, whether it keeps the
/// progress line, and its node count for that line.
pub struct Worker<'a> {
    pub shared: &'a Incumbent,
    pub reporter: bool,
    pub ticks: u32,
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
