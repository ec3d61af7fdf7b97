//! Graphs on board squares in Graphviz DOT, for drawing a piece's move graph and a path
//! through it.

use std::fmt::Write as _;

use crate::kinds::SquareGraph;

/// The move graph (or any graph on board squares) in Graphviz DOT: nodes named by square,
/// placed at their board position (for `neato -n`), edges on `highlight` drawn bold.
pub fn dot_graph(g: &SquareGraph) -> String {
    let SquareGraph {
        name,
        width,
        nodes,
        edges,
        highlight,
    } = g;
    let width = *width;
    let mut s = String::new();
    let _ = writeln!(s, "graph \"{}\" {{", name.replace('"', "'"));
    let _ = writeln!(
        s,
        "  node [shape=circle fontsize=10 width=0.4 fixedsize=true];"
    );
    for (sq, label) in nodes {
        let _ = writeln!(
            s,
            "  s{sq} [label=\"{label}\" pos=\"{},{}!\"];",
            (sq % width) * 50,
            -((sq / width) as i64) * 50
        );
    }
    let mut bold: Vec<(usize, usize)> = highlight
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    bold.sort_unstable();
    for &(a, b) in edges {
        let key = (a.min(b), a.max(b));
        if bold.binary_search(&key).is_ok() {
            let _ = writeln!(s, "  s{a} -- s{b} [penwidth=3 color=\"#c03020\"];");
        } else {
            let _ = writeln!(s, "  s{a} -- s{b} [color=\"#999999\"];");
        }
    }
    s.push_str("}\n");
    s
}
