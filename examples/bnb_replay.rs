//! The replay of docs/performance.md ("Domination on many threads"): what a `bnb` proof
//! would take on W cores, from the pieces a real run searched on this machine.
//!
//! A run with `BOARDSOLVE_BNB_TRACE=FILE` set writes one line per piece it searched: a
//! subtree of the list or one a busy worker donated, with its CPU time (of its thread, so a
//! run with more threads than cores still measures each piece's work) and the donations made
//! from it (`first+count@offset_ns`, the offset in CPU time into the piece). This program
//! schedules those pieces as the pool does and prints the makespan:
//!
//! - a trace without donations (`--set solve.options.bnb.donate=0`: the fixed list alone) is replayed on 1, 2, 4, 8, 16 and 64 workers by list scheduling in queue
//!   order (each free worker takes the next subtree of the list);
//! - a trace with donations, taken on T threads, is replayed on T workers: the list in queue
//!   order, then the donated pieces, each available from the moment its donor piece reached
//!   the point where it gave it (the donor's start plus the recorded offset), the earliest
//!   available first. Each piece takes its recorded time, the donor's being what it did after
//!   giving its siblings away. So the replay uses the split the run really made with T
//!   threads; it does not invent pieces.
//!
//! Usage: `cargo run --release --example bnb_replay -- TRACE...`

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

struct Piece {
    cpu: u64,
    nodes: u64,
    gave: Vec<(usize, usize, u64)>,
}

struct Trace {
    list: usize,
    threads: usize,
    pieces: HashMap<usize, Piece>,
}

fn parse(path: &str) -> Trace {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("a header").split_whitespace().collect();
    // "# bnb pieces: list L threads T"
    let list = head[4].parse().expect("the list's length");
    let threads = head[6].parse().expect("the threads");
    let mut pieces = HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| -> u64 { f[i].parse().expect("a number") };
        let gave = f[4..]
            .iter()
            .map(|g| {
                let (first, rest) = g.split_once('+').expect("first+count@offset");
                let (n, at) = rest.split_once('@').expect("count@offset");
                (
                    first.parse().expect("a piece"),
                    n.parse().expect("a count"),
                    at.parse().expect("an offset"),
                )
            })
            .collect();
        pieces.insert(
            num(0) as usize,
            Piece {
                cpu: num(2),
                nodes: num(3),
                gave,
            },
        );
    }
    Trace {
        list,
        threads,
        pieces,
    }
}

/// The makespan (ns) of the trace's pieces on `workers` workers, as the pool schedules them.
fn makespan(t: &Trace, workers: usize) -> u64 {
    let mut free: BinaryHeap<Reverse<u64>> = (0..workers).map(|_| Reverse(0)).collect();
    // Donated pieces whose donor has started: (available from, piece).
    let mut ready: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut next = 0;
    let mut end = 0;
    loop {
        let id_at = if next < t.list {
            next += 1;
            Some((next - 1, 0))
        } else {
            ready.pop().map(|Reverse((at, id))| (id, at))
        };
        let Some((id, at)) = id_at else { break };
        let Reverse(tau) = free.pop().expect("a worker");
        let start = tau.max(at);
        let p = &t.pieces[&id];
        let finish = start + p.cpu;
        for &(first, n, off) in &p.gave {
            for d in first..first + n {
                ready.push(Reverse((start + off, d)));
            }
        }
        end = end.max(finish);
        free.push(Reverse(finish));
    }
    end
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: bnb_replay TRACE...");
        std::process::exit(2);
    }
    for path in &paths {
        let t = parse(path);
        let total: u64 = t.pieces.values().map(|p| p.cpu).sum();
        let nodes: u64 = t.pieces.values().map(|p| p.nodes).sum();
        let largest = t.pieces.values().map(|p| p.cpu).max().unwrap_or(0);
        let donated = t.pieces.len().saturating_sub(t.list);
        let s = |ns: u64| ns as f64 / 1e9;
        // The makespan in nodes, at the run's mean CPU time a node: runs on a shared machine
        // differ by tens of percent in CPU time a node, not in nodes.
        let in_nodes = |ns: u64| ns as f64 * nodes as f64 / total as f64;
        println!(
            "{path}: run on {} threads; {} pieces ({} listed, {donated} donated), {nodes} nodes, \
             work {:.2} s, largest piece {:.2} s",
            t.threads,
            t.pieces.len(),
            t.list,
            s(total),
            s(largest)
        );
        if donated == 0 {
            println!("  list scheduling in queue order:");
            let two = makespan(&t, 2);
            for w in [1, 2, 4, 8, 16, 64] {
                let m = makespan(&t, w);
                println!(
                    "  {w:>3} workers: makespan {:8.2} s ({:.0} nodes), speedup over 2 workers \
                     {:5.2}, bound max(work/W, largest) {:.2} s",
                    s(m),
                    in_nodes(m),
                    two as f64 / m as f64,
                    s((total / w as u64).max(largest))
                );
            }
        } else {
            let w = t.threads;
            let m = makespan(&t, w);
            println!(
                "  with donation, on the run's {w} workers: makespan {:.2} s ({:.0} nodes), \
                 work/W {:.2} s",
                s(m),
                in_nodes(m),
                s(total / w as u64)
            );
        }
    }
}
