//! The move graph of a tour puzzle: the squares and the piece's moves between them, built
//! with petgraph for the analysis (components, colour classes, degrees) and kept as flat
//! arrays for the searches.

use petgraph::graph::{NodeIndex, UnGraph};

use crate::board::Board;

/// Boards up to this many squares get a move graph (petgraph for the analysis, then flat
/// arrays of about 40 bytes a square). Larger boards are built by `divide` alone, which
/// needs no graph: only the plain knight on a board without holes is accepted there.
pub const GRAPH_LIMIT: usize = 1 << 21;

/// Square indices are kept in `u32` arrays; the format allows 10^9 squares, which fits.
pub const NONE: u32 = u32::MAX;

/// The move graph in compressed sparse rows over square indices: the moves from square `s`
/// are `targets[offsets[s]..offsets[s + 1]]`, sorted; holes have none.
#[derive(Clone, Debug)]
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
}

impl Csr {
    #[inline]
    pub fn moves(&self, s: usize) -> &[u32] {
        &self.targets[self.offsets[s] as usize..self.offsets[s + 1] as usize]
    }

    pub fn degree(&self, s: usize) -> usize {
        (self.offsets[s + 1] - self.offsets[s]) as usize
    }
}

/// What the petgraph analysis found (boards up to [`GRAPH_LIMIT`] squares).
#[derive(Clone, Debug)]
pub struct Analysis {
    pub components: usize,
    /// Sizes of the two colour classes when the graph is bipartite (the first holds the
    /// lowest-numbered square).
    pub colour_classes: Option<(usize, usize)>,
    /// `class[s]`: 0 or 1 when bipartite, else 0.
    pub class: Vec<u8>,
    pub min_degree: usize,
    pub max_degree: usize,
}

/// The move graph in petgraph: one node per square on the board (`cells` of them), in index
/// order, and each square's node ([`NONE`] on holes).
pub fn petgraph(b: &Board, moves: &[(i32, i32)], cells: usize) -> (UnGraph<u32, ()>, Vec<u32>) {
    let mut g = UnGraph::<u32, ()>::with_capacity(cells, cells * 4);
    let mut node = vec![NONE; b.squares()];
    for s in b.cells() {
        node[s] = g.add_node(s as u32).index() as u32;
    }
    for s in b.cells() {
        for &(dr, dc) in moves {
            if let Some(t) = b.step(s, dr, dc)
                && t > s
            {
                g.add_edge(
                    NodeIndex::new(node[s] as usize),
                    NodeIndex::new(node[t] as usize),
                    (),
                );
            }
        }
    }
    (g, node)
}

/// The bytes [`build`] holds at its peak on a board of `squares` squares, `cells` of them
/// not holes, for a piece of `moves` moves: petgraph's nodes (12 bytes) and edges (16), the
/// square-to-node map, the colouring, and the flat arrays (a `u32` a square and two a move).
pub fn bytes(squares: usize, cells: usize, moves: usize) -> u64 {
    let (s, c) = (squares as u64, cells as u64);
    let edges = c * moves as u64 / 2;
    // Room for 4 edges a node at first, doubled as needed.
    let edge_room = if edges <= 4 * c { 4 * c } else { 2 * edges };
    9 * s + 21 * c + 16 * edge_room + 8 * edges
}

/// The move graph as flat arrays, with its analysis.
pub fn build(b: &Board, moves: &[(i32, i32)], cells: usize) -> (Csr, Analysis) {
    let (g, node) = petgraph(b, moves, cells);
    let components = petgraph::algo::connected_components(&g);
    // Two-colour the graph by breadth-first search; a conflict means not bipartite.
    let n = g.node_count();
    let mut colour = vec![u8::MAX; n];
    let mut bipartite = true;
    let mut queue = std::collections::VecDeque::new();
    for root in 0..n {
        if colour[root] != u8::MAX {
            continue;
        }
        colour[root] = 0;
        queue.push_back(NodeIndex::new(root));
        while let Some(v) = queue.pop_front() {
            for w in g.neighbors(v) {
                if colour[w.index()] == u8::MAX {
                    colour[w.index()] = colour[v.index()] ^ 1;
                    queue.push_back(w);
                } else if colour[w.index()] == colour[v.index()] {
                    bipartite = false;
                }
            }
        }
    }
    let squares = b.squares();
    let mut class = vec![0u8; squares];
    let mut offsets = Vec::with_capacity(squares + 1);
    let mut targets = Vec::with_capacity(g.edge_count() * 2);
    let (mut min_degree, mut max_degree) = (usize::MAX, 0);
    offsets.push(0u32);
    for s in 0..squares {
        if node[s] != NONE {
            let v = NodeIndex::new(node[s] as usize);
            let before = targets.len();
            targets.extend(g.neighbors(v).map(|w| g[w]));
            targets[before..].sort_unstable();
            let d = targets.len() - before;
            min_degree = min_degree.min(d);
            max_degree = max_degree.max(d);
            if bipartite {
                class[s] = colour[v.index()];
            }
        }
        offsets.push(targets.len() as u32);
    }
    let colour_classes = bipartite.then(|| {
        let ones = colour.iter().filter(|&&c| c == 1).count();
        (n - ones, ones)
    });
    (
        Csr { offsets, targets },
        Analysis {
            components,
            colour_classes,
            class,
            min_degree,
            max_degree,
        },
    )
}
