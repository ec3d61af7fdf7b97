//! The memory budget of a run without `--memory`: a share of what the machine (or the
//! container, or `ulimit -v`) gives the process, read from /proc and /sys on Linux.

use std::path::Path;

/// The share of the memory found that a run may take: the rest is left to the process's
/// own code, stacks and output, and to whatever else runs beside it.
const SHARE_NUM: u64 = 3;
const SHARE_DEN: u64 = 4;

/// 3/4 of the least of the machine's memory (MemTotal), the cgroup's memory limit and the
/// address-space limit (`ulimit -v`); `None` where none of them can be read (not Linux).
pub(crate) fn default_budget() -> Option<u64> {
    [mem_total(), cgroup_limit(), address_space_limit()]
        .into_iter()
        .flatten()
        .min()
        .map(|m| m / SHARE_DEN * SHARE_NUM)
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
