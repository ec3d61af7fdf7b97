//! Tours up to symmetry (`--unique`): each tour found is weighed by how many symmetries map
//! it to itself, and the classes are the sum over the group's size (Burnside's lemma counted
//! from the other side: an orbit of a tour `t` has |G| / |Stab(t)| tours, so the tours of one
//! class weigh |Stab(t)| each, |G| in all).
//!
//! The group: the board's symmetries that map holes to holes; for open tours, which are
//! counted directed, each of them also with the direction reversed (a class is a tour
//! diagram). Closed tours are undirected cycles already. A given start is fixed by few
//! symmetries and by no reversal, so `--unique` with a start is refused.

use super::model::Model;

/// The symmetries a tour is taken up to, and the arrays the test of one tour uses.
pub(super) struct Symmetries {
    /// The board's symmetries but the identity, as permutations of square indices.
    board: Vec<Vec<u32>>,
    closed: bool,
    /// Per square: its place in the tour at hand.
    place: Vec<u32>,
}

impl Symmetries {
    pub fn new(m: &Model) -> Symmetries {
        Symmetries {
            board: m.board.symmetries().into_iter().skip(1).collect(),
            closed: m.closed,
            place: vec![0; m.board.squares()],
        }
    }

    /// The group's size: the board's symmetries, times two directions for open tours.
    pub fn order(&self) -> u128 {
        let board = self.board.len() as u128 + 1;
        if self.closed { board } else { 2 * board }
    }

    /// How many of the group's elements map the tour `path` (every cell once) to itself.
    pub fn stabiliser(&mut self, path: &[usize]) -> u128 {
        let n = path.len();
        for (i, &v) in path.iter().enumerate() {
            self.place[v] = i as u32;
        }
        let mut fixed = 1;
        for g in &self.board {
            let image = |i: usize| g[path[i]] as usize;
            let keeps = if self.closed {
                // A cycle maps to itself when each step's image is a step of the cycle:
                // the image of a step's ends lie next to each other on it.
                (0..n).all(|i| {
                    let (a, b) = (self.place[image(i)], self.place[image((i + 1) % n)]);
                    let d = a.abs_diff(b) as usize;
                    d == 1 || d == n - 1
                })
            } else {
                // A directed path maps to itself only reversed (a symmetry fixing every
                // square is the identity).
                (0..n).all(|i| image(i) == path[n - 1 - i])
            };
            fixed += keeps as u128;
        }
        // The identity keeps it; for an open tour, so does nothing else with the direction
        // kept, and each board symmetry above counted reversed.
        fixed
    }
}
