//! The named sets of `[pieces] set`: the free polyominoes of one to six squares under their
//! usual letters (the hexominoes, which have none, numbered), and Piet Hein's Soma pieces.

use crate::board::polyform::{self, Cell, Turns};

/// A set's name and its pieces, each a name and a picture as a user would draw it.
const DRAWN: &[(&str, &[(&str, &str)])] = &[
    ("monomino", &[("M", "#")]),
    ("domino", &[("D", "##")]),
    ("trominoes", &[("I", "###"), ("V", "##\n#.")]),
    (
        "tetrominoes",
        &[
            ("I", "####"),
            ("L", "###\n#.."),
            ("O", "##\n##"),
            ("S", ".##\n##."),
            ("T", "###\n.#."),
        ],
    ),
    (
        "pentominoes",
        &[
            ("F", ".##\n##.\n.#."),
            ("I", "#####"),
            ("L", "####\n#..."),
            ("N", "##..\n.###"),
            ("P", "##\n##\n#."),
            ("T", "###\n.#.\n.#."),
            ("U", "#.#\n###"),
            ("V", "#..\n#..\n###"),
            ("W", "#..\n##.\n.##"),
            ("X", ".#.\n###\n.#."),
            ("Y", ".#..\n####"),
            ("Z", "##.\n.#.\n.##"),
        ],
    ),
    (
        // Piet Hein's seven pieces, in Conway's letters: the tricube V, the tetracubes L, T,
        // Z, the two screws A and B (mirror images of each other), and the branch P.
        "soma",
        &[
            ("V", "##\n#."),
            ("L", "###\n#.."),
            ("T", "###\n.#."),
            ("Z", "##.\n.##"),
            ("A", "##\n#.\n\n..\n#."),
            ("B", "##\n#.\n\n.#\n.."),
            ("P", "##\n#.\n\n#.\n.."),
        ],
    ),
];

/// The names `[pieces] set` accepts.
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&str> = DRAWN.iter().map(|s| s.0).collect();
    v.insert(5, "hexominoes");
    v
}

/// A piece of a named set.
pub struct SetPiece {
    pub name: String,
    pub cells: Vec<Cell>,
}

/// The pieces of the set `name`, or `None` for no such set.
pub fn pieces(name: &str) -> Option<Vec<SetPiece>> {
    if name == "hexominoes" {
        return Some(hexominoes());
    }
    let (_, drawn) = DRAWN.iter().find(|s| s.0 == name)?;
    Some(
        drawn
            .iter()
            .map(|&(n, picture)| {
                let d = polyform::read_drawing(picture).expect("the sets' pictures are pictures");
                SetPiece {
                    name: n.to_string(),
                    cells: d.marks.iter().filter(|m| m.1 == '#').map(|m| m.0).collect(),
                }
            })
            .collect(),
    )
}

/// The 35 free hexominoes, grown square by square from the domino and kept in their least
/// form under the 8 turns of the plane; named H01..H35 in the order of those forms.
fn hexominoes() -> Vec<SetPiece> {
    let plane = polyform::turns(false, Turns::Free);
    let least = |cells: &[Cell]| -> Vec<Cell> {
        polyform::orientations(cells, &plane)
            .into_iter()
            .min()
            .expect("one orientation at least")
    };
    let mut level: Vec<Vec<Cell>> = vec![vec![[0, 0, 0], [1, 0, 0]]];
    for _ in 2..6 {
        let mut next: Vec<Vec<Cell>> = Vec::new();
        for shape in &level {
            for c in shape {
                for d in [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]] {
                    let n = [c[0] + d[0], c[1] + d[1], 0];
                    if shape.contains(&n) {
                        continue;
                    }
                    let mut grown = shape.clone();
                    grown.push(n);
                    let form = least(&grown);
                    if !next.contains(&form) {
                        next.push(form);
                    }
                }
            }
        }
        level = next;
    }
    level.sort();
    level
        .into_iter()
        .enumerate()
        .map(|(k, cells)| SetPiece {
            name: format!("H{:02}", k + 1),
            cells,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sets_hold_the_free_polyominoes() {
        let plane = polyform::turns(false, Turns::Free);
        for (set, n, squares) in [
            ("monomino", 1, 1),
            ("domino", 1, 2),
            ("trominoes", 2, 3),
            ("tetrominoes", 5, 4),
            ("pentominoes", 12, 5),
            ("hexominoes", 35, 6),
        ] {
            let p = pieces(set).unwrap();
            assert_eq!(p.len(), n, "{set}");
            let mut forms: Vec<Vec<Cell>> = Vec::new();
            for piece in &p {
                assert_eq!(piece.cells.len(), squares, "{set} {}", piece.name);
                assert!(polyform::is_connected(&piece.cells), "{}", piece.name);
                let form = polyform::orientations(&piece.cells, &plane)
                    .into_iter()
                    .min()
                    .unwrap();
                assert!(!forms.contains(&form), "{set}: {} twice", piece.name);
                forms.push(form);
            }
        }
        let soma = pieces("soma").unwrap();
        assert_eq!(soma.iter().map(|p| p.cells.len()).sum::<usize>(), 27);
        assert!(soma.iter().all(|p| polyform::is_connected(&p.cells)));
        assert!(pieces("heptominoes").is_none());
    }
}
