//! The memory budget of a run: `--memory`, or without it a share of what the machine (or the
//! container, or `ulimit -v`) gives the process, read from /proc and /sys on Linux; and never
//! more than that share.

use std::path::Path;
use std::sync::Once;

use boardsolve::render;

/// The share of the memory found that a run may take: the rest is left to the process's
/// own code, stacks and output, and to whatever else runs beside it.
const SHARE_NUM: u64 = 3;
const SHARE_DEN: u64 = 4;

/// The least budget `--memory` takes: the process's own code, stacks and buffers hold about
/// 5 MiB before any puzzle is read, so a smaller budget could not be kept; 8 MiB leaves room
/// for the data of small puzzles.
pub(crate) const MIN_BUDGET: u64 = 8 << 20;

/// Where a run's budget came from, for the advice of a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// `--memory`, within what the system gives.
    Flag,
    /// `--memory` asked for more than the system gives: the budget is all it gives.
    Capped,
    /// No `--memory`: the default share.
    Default,
}

/// A run's memory budget in bytes (`None`: no limit could be found, not Linux) and its source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub(crate) bytes: Option<u64>,
    pub(crate) source: Source,
}

impl Budget {
    /// How to give a job of `need` bytes room, for the end of a refusal.
    pub(crate) fn advice(&self, need: u64) -> String {
        match self.source {
            Source::Flag => format!("raise it with --memory {} or more", flag_size(need)),
            Source::Default | Source::Capped => format!(
                "that is already 3/4 of what the system gives this process (the default, and \
                 the most --memory sets): it needs a machine, cgroup or `ulimit -v` that gives \
                 {} or more",
                render::bytes(need / SHARE_NUM * SHARE_DEN)
            ),
        }
    }
}

/// A size as `--memory` takes it, rounded up: whole mebibytes, or gibibytes from 10 GiB.
fn flag_size(bytes: u64) -> String {
    if bytes >= 10 << 30 {
        format!("{}G", bytes.div_ceil(1 << 30))
    } else {
        format!("{}M", bytes.div_ceil(1 << 20).max(MIN_BUDGET >> 20))
    }
}

/// The budget of a run: `--memory` as parsed (`asked`), but no more than the default share
/// of what the system gives, with a note on standard error (once a process) when that caps
/// it; without `--memory`, that share.
pub(crate) fn budget(asked: Option<u64>) -> Budget {
    let (budget, note) = budget_noted(asked);
    if let Some(note) = note {
        static NOTE: Once = Once::new();
        NOTE.call_once(|| errln!("note: {note}"));
    }
    budget
}

/// [`budget`], with the note on a cap given back instead of written: the Python package
/// says it as a warning.
pub(crate) fn budget_noted(asked: Option<u64>) -> (Budget, Option<String>) {
    let system = available();
    let Some(asked) = asked else {
        let budget = Budget {
            bytes: system.map(|(b, _, _)| b),
            source: Source::Default,
        };
        return (budget, None);
    };
    match system {
        Some((share, least, what)) if asked > share => {
            let note = format!(
                "--memory {} is more than this process can use: the budget is {}, 3/4 of {} \
                 ({what}, the least of MemTotal, the cgroup's memory limit and `ulimit -v`); \
                 the rest is left to the process's own code and stacks",
                render::bytes(asked),
                render::bytes(share),
                render::bytes(least),
            );
            let budget = Budget {
                bytes: Some(share),
                source: Source::Capped,
            };
            (budget, Some(note))
        }
        _ => (
            Budget {
                bytes: Some(asked),
                source: Source::Flag,
            },
            None,
        ),
    }
}

/// 3/4 of the least of the machine's memory (MemTotal), the cgroup's memory limit and the
/// address-space limit (`ulimit -v`), that least and its name; `None` where none of them can
/// be read (not Linux).
fn available() -> Option<(u64, u64, &'static str)> {
    [
        (mem_total(), "MemTotal"),
        (cgroup_limit(), "the cgroup's memory limit"),
        (address_space_limit(), "`ulimit -v`"),
    ]
    .into_iter()
    .filter_map(|(v, what)| v.map(|v| (v, what)))
    .min_by_key(|&(v, _)| v)
    .map(|(least, what)| (least / SHARE_DEN * SHARE_NUM, least, what))
}

/// MemTotal from /proc/meminfo, in bytes.
fn mem_total() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The least memory limit of the process's cgroup and its ancestors (cgroup v2
/// `memory.max`, v1 `memory.limit_in_bytes`); `None` when unlimited or unreadable.
fn cgroup_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut least: Option<u64> = None;
    for line in text.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let (root, file) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
        } else {
            continue;
        };
        // The path as the process sees it, then each ancestor up to the root: a limit set
        // above bounds the groups below it.
        let mut dir = Path::new(root).join(path.trim_start_matches('/'));
        loop {
            if let Some(v) = read_limit(&dir.join(file)) {
                least = Some(least.map_or(v, |l| l.min(v)));
            }
            if dir == Path::new(root) || !dir.pop() {
                break;
            }
        }
    }
    least
}

/// A cgroup limit file: a number of bytes, or "max"; v1's "unlimited" is a number near 2^63.
fn read_limit(file: &Path) -> Option<u64> {
    let v: u64 = std::fs::read_to_string(file).ok()?.trim().parse().ok()?;
    (v < 1 << 60).then_some(v)
}

/// The soft limit on the address space (`ulimit -v`), from /proc/self/limits.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}
