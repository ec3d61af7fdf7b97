//! Open tours counted pair of ends by pair of ends: for `count` on boards 7 wide or more,
//! and for its parts (`--part`) on any board.
//!
//! A frontier sweep that lets any square end the tour keeps, in its states, which fragments
//! already end outside the frontier and where the other end may still fall: on a 7 x 7 board
//! that multiplies the states past any memory (a single start square alone passes 3 GB).
//! With both ends fixed no square but those two may end a path, and a sweep holds about as
//! many states as for closed tours. So the open count is a sum over the pairs of squares the
//! tour may end on (a knight alternates colours: on a board with one square more of one
//! colour both ends are of that colour, otherwise they differ), each pair a sweep that
//! counts the undirected paths between its ends.
//!
//! The board's symmetries (those that keep its holes, and the start if one is given) map a
//! pair's paths one to one onto its image's, so one sweep stands for each orbit of pairs,
//! weighed by the orbit's size. Of the orbit's pairs the sweep takes the one whose ends come
//! latest in the sweep order: a path fragment that leaves the frontier at an end stays in
//! the states for the rest of the sweep, so a late end keeps them fewer (on 7 x 7 the
//! sweeps take from 2 to 23 s, the earliest ends the longest). The sweeps run one per
//! thread, the costliest (earliest end) first.

use std::collections::HashMap;

use super::model::Model;
use super::order::Order;

/// One sweep: the pair of board squares it fixes as the ends, and how many pairs of the
/// board it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EndPair {
    pub ends: [usize; 2],
    pub weight: u64,
}

/// The board's shorter side from which open tours without both ends given are counted by
/// pairs of ends: below it one sweep with free ends holds fewer states than all the pairs'.
pub(super) const PAIRS_FROM_SIDE: usize = 7;

/// The sweeps that together count the open tours of `m`: one per orbit of pairs of ends
/// under the board's symmetries (those keeping the start, if given), costliest first. The
/// list depends on the board, its holes and the start alone, so every part of a count
/// lists the same sweeps in the same order.
pub(super) fn end_pairs(m: &Model) -> Vec<EndPair> {
    let b = &m.board;
    let squares: Vec<usize> = (0..b.squares()).filter(|&s| !b.is_hole(s)).collect();
    // The tour of a single cell starts and ends on it: one sweep, whose ends are that cell.
    if let [only] = squares[..] {
        return vec![EndPair {
            ends: [only, only],
            weight: 1,
        }];
    }
    let colour = |s: usize| (s / b.width + s % b.width) % 2;
    let major = squares.iter().filter(|&&s| colour(s) == 0).count();
    let minor = squares.len() - major;
    // Whether a and b may be the two ends of a path through every cell.
    let fits = |a: usize, z: usize| match major.cmp(&minor) {
        std::cmp::Ordering::Equal => colour(a) != colour(z),
        std::cmp::Ordering::Greater => colour(a) == 0 && colour(z) == 0,
        std::cmp::Ordering::Less => colour(a) == 1 && colour(z) == 1,
    };
    let syms: Vec<Vec<u32>> = b
        .symmetries()
        .into_iter()
        .filter(|g| m.start.is_none_or(|s| g[s] as usize == s))
        .collect();
    // A pair as a key: the start first when there is one, else the smaller square first.
    let key = |a: usize, z: usize| -> [usize; 2] {
        if m.start.is_some() || a < z {
            [a, z]
        } else {
            [z, a]
        }
    };
    let pairs: Vec<[usize; 2]> = match m.start {
        Some(s) => squares
            .iter()
            .filter(|&&z| z != s && fits(s, z))
            .map(|&z| [s, z])
            .collect(),
        None => squares
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| squares[i + 1..].iter().map(move |&z| [a, z]))
            .filter(|&[a, z]| fits(a, z))
            .collect(),
    };
    // Orbits by their least member; each orbit's sweep takes its member with the latest
    // ends in the sweep order.
    let order = Order::best(b);
    let late = |[a, z]: [usize; 2]| {
        let (x, y) = (order.of_square(a), order.of_square(z));
        (x.min(y), x.max(y))
    };
    let mut orbits: HashMap<[usize; 2], EndPair> = HashMap::new();
    for &[a, z] in &pairs {
        let images = syms.iter().map(|g| key(g[a] as usize, g[z] as usize));
        let least = images.clone().min().expect("the identity is a symmetry");
        let best = images.max_by_key(|&p| late(p)).expect("the identity");
        let o = orbits.entry(least).or_insert(EndPair {
            ends: best,
            weight: 0,
        });
        o.weight += 1;
    }
    let mut out: Vec<EndPair> = orbits.into_values().collect();
    out.sort_by_key(|p| (late(p.ends), p.ends));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{KindSpec, Overrides, Spec};

    fn model(text: &str) -> Model {
        let spec = Spec::parse("t.toml", text, &Overrides::default()).unwrap();
        let KindSpec::Tour(rules) = &spec.rules else {
            panic!("a tour puzzle");
        };
        Model::compile(&spec, rules).unwrap()
    }

    #[test]
    fn the_orbits_cover_every_pair_of_ends_once() {
        // 7 x 7: 25 squares of the larger colour, C(25, 2) = 300 pairs.
        let m = model("kind = \"tour\"\n[board]\nsize = 7\n");
        let pairs = end_pairs(&m);
        assert_eq!(pairs.iter().map(|p| p.weight).sum::<u64>(), 300);
        assert!(pairs.len() < 300 / 4);
        // 6 x 7: as many of each colour, 21 x 21 pairs; four symmetries.
        let m = model("kind = \"tour\"\n[board]\nwidth = 6\nheight = 7\n");
        assert_eq!(end_pairs(&m).iter().map(|p| p.weight).sum::<u64>(), 441);
        // From a corner start: the other end on any of the 24 other squares of its colour,
        // the diagonal reflection pairing them.
        let m = model("kind = \"tour\"\n[board]\nsize = 7\n[rules]\nstart = [0, 0]\n");
        let pairs = end_pairs(&m);
        assert_eq!(pairs.iter().map(|p| p.weight).sum::<u64>(), 24);
        assert!(pairs.iter().all(|p| p.ends[0] == 0));
        assert_eq!(pairs.len(), 15);
        // A single cell: its tour ends where it starts.
        let m = model("kind = \"tour\"\n[board]\nsize = 1\n");
        let one = EndPair {
            ends: [0, 0],
            weight: 1,
        };
        assert_eq!(end_pairs(&m), [one]);
    }

    #[test]
    fn the_list_is_the_same_every_time() {
        // The parts of a count each list the pairs again (their orbits gathered in a hash map
        // of its own seed): one order, by the sweep places of the ends, on a board with holes
        // and on one with a start.
        for text in [
            "[board]\nsize = 6\nholes = [[0, 0], [2, 3]]\n",
            "[board]\nwidth = 8\nheight = 5\n[rules]\nstart = [1, 2]\n",
        ] {
            let m = model(&format!("kind = \"tour\"\n{text}"));
            let pairs = end_pairs(&m);
            for _ in 0..8 {
                assert_eq!(end_pairs(&m), pairs, "{text}");
            }
            let late: Vec<(usize, usize)> = pairs
                .iter()
                .map(|p| {
                    let order = Order::best(&m.board);
                    let (x, y) = (order.of_square(p.ends[0]), order.of_square(p.ends[1]));
                    (x.min(y), x.max(y))
                })
                .collect();
            assert!(late.windows(2).all(|w| w[0] < w[1]), "{text}");
        }
    }
}
