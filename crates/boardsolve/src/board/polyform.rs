//! Polyforms: shapes made of unit squares (polyominoes) or unit cubes (polycubes), their
//! orientations under a group of turns, and the pictures they are drawn in.
//!
//! A cell is `[x, y, z]`: x the column from the left, y the row from the top, z the layer
//! from the top, as a picture draws them. A flat shape lies in layer 0.

/// One unit square or cube: `[column, row, layer]`.
pub type Cell = [i32; 3];

/// Which turns a piece may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// Every turn of the space, mirror images included: 8 in the plane, 48 in a box.
    Free,
    /// Rotations alone: 4 in the plane, 24 in a box.
    Rotations,
    /// As drawn.
    Fixed,
}

impl Turns {
    /// Every choice: the parser and the errors take their names from here.
    pub const ALL: [Turns; 3] = [Turns::Free, Turns::Rotations, Turns::Fixed];
    pub const NAMES: [&'static str; 3] = [
        Turns::ALL[0].name(),
        Turns::ALL[1].name(),
        Turns::ALL[2].name(),
    ];

    pub fn parse(s: &str) -> Option<Turns> {
        Turns::ALL.into_iter().find(|t| t.name() == s)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Turns::Free => "free",
            Turns::Rotations => "rotations",
            Turns::Fixed => "fixed",
        }
    }
}

/// A linear map of the grid onto itself: a signed permutation of the axes, `cell[axis[i]] *
/// sign[i]` being coordinate i of the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    axis: [usize; 3],
    sign: [i32; 3],
}

impl Turn {
    pub const IDENTITY: Turn = Turn {
        axis: [0, 1, 2],
        sign: [1, 1, 1],
    };

    pub fn apply(&self, c: Cell) -> Cell {
        [
            c[self.axis[0]] * self.sign[0],
            c[self.axis[1]] * self.sign[1],
            c[self.axis[2]] * self.sign[2],
        ]
    }

    /// +1 for a rotation, -1 for a mirror image.
    pub fn determinant(&self) -> i32 {
        let parity = {
            let a = self.axis;
            // Inversions of the permutation.
            let inv = (a[0] > a[1]) as i32 + (a[0] > a[2]) as i32 + (a[1] > a[2]) as i32;
            if inv % 2 == 0 { 1 } else { -1 }
        };
        parity * self.sign[0] * self.sign[1] * self.sign[2]
    }

    /// Whether it keeps the layers (z) where they are: a turn of the plane.
    pub fn is_planar(&self) -> bool {
        self.axis[2] == 2 && self.sign[2] == 1
    }
}

/// The turns a piece may take: in the plane (`space` false) the 8 symmetries of the square
/// (4 rotations), in a box the 48 of the cube (24 rotations); the identity comes first.
pub fn turns(space: bool, allowed: Turns) -> Vec<Turn> {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut all = Vec::new();
    for axis in PERMS {
        for s in 0..8 {
            let sign = [
                if s & 1 == 0 { 1 } else { -1 },
                if s & 2 == 0 { 1 } else { -1 },
                if s & 4 == 0 { 1 } else { -1 },
            ];
            let t = Turn { axis, sign };
            if !space && !t.is_planar() {
                continue;
            }
            let keep = match allowed {
                Turns::Free => true,
                Turns::Rotations => t.determinant() == 1,
                Turns::Fixed => t == Turn::IDENTITY,
            };
            if keep {
                all.push(t);
            }
        }
    }
    all
}

/// Shift the cells so that their smallest coordinates are 0, and sort them.
pub fn normalize(cells: &mut [Cell]) {
    let mut low = [i32::MAX; 3];
    for c in cells.iter() {
        for i in 0..3 {
            low[i] = low[i].min(c[i]);
        }
    }
    for c in cells.iter_mut() {
        for i in 0..3 {
            c[i] -= low[i];
        }
    }
    cells.sort_unstable();
}

/// The distinct normalized images of `shape` under `turns`, in the order of the turns that
/// first give them.
pub fn orientations(shape: &[Cell], turns: &[Turn]) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for t in turns {
        let mut img: Vec<Cell> = shape.iter().map(|&c| t.apply(c)).collect();
        normalize(&mut img);
        if !out.contains(&img) {
            out.push(img);
        }
    }
    out
}

/// The extent of the cells along each axis (width, height, depth); zeros for no cells.
pub fn extent(cells: &[Cell]) -> [usize; 3] {
    if cells.is_empty() {
        return [0; 3];
    }
    let mut e = [0usize; 3];
    for i in 0..3 {
        let lo = cells.iter().map(|c| c[i]).min().unwrap_or(0);
        let hi = cells.iter().map(|c| c[i]).max().unwrap_or(0);
        e[i] = (hi - lo + 1) as usize;
    }
    e
}

/// Whether the cells form one piece, cells joined through their faces (edges in the plane).
pub fn is_connected(cells: &[Cell]) -> bool {
    if cells.is_empty() {
        return false;
    }
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        let a = cells[i];
        for (j, b) in cells.iter().enumerate() {
            let d: i32 = (0..3).map(|k| (a[k] - b[k]).abs()).sum();
            if d == 1 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

/// A picture: layers from the top, separated by a blank line; in each, rows from the top,
/// one character a cell. Indentation common to every row is not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    /// Each character that is not a space, with its cell and its byte offset in the text.
    pub marks: Vec<(Cell, char, usize)>,
}

/// Why a text is no picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawingFault {
    /// Nothing but spaces and blank lines.
    Empty,
    /// A tab or another control character at this byte offset.
    Control { at: usize, what: char },
}

/// Read a picture. Trailing blank lines and the indentation shared by all rows are dropped;
/// two or more blank lines in a row separate layers as one does.
pub fn read_drawing(text: &str) -> Result<Drawing, DrawingFault> {
    // Lines with their byte offsets.
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        let body = line.strip_suffix('\r').unwrap_or(line);
        if let Some((i, c)) = body.char_indices().find(|&(_, c)| c.is_control()) {
            return Err(DrawingFault::Control {
                at: at + i,
                what: c,
            });
        }
        lines.push((at, body));
        at += line.len() + 1;
    }
    let blank = |s: &str| s.trim().is_empty();
    let indent = lines
        .iter()
        .filter(|(_, l)| !blank(l))
        .map(|(_, l)| l.len() - l.trim_start_matches(' ').len())
        .min()
        .ok_or(DrawingFault::Empty)?;
    let mut layers: Vec<Vec<(usize, &str)>> = vec![Vec::new()];
    for &(off, l) in &lines {
        if blank(l) {
            if !layers.last().is_some_and(|x| x.is_empty()) {
                layers.push(Vec::new());
            }
        } else {
            layers
                .last_mut()
                .expect("one layer at least")
                .push((off + indent, &l[indent..]));
        }
    }
    layers.retain(|l| !l.is_empty());
    let mut d = Drawing {
        width: 0,
        height: 0,
        depth: layers.len(),
        marks: Vec::new(),
    };
    for (z, rows) in layers.iter().enumerate() {
        d.height = d.height.max(rows.len());
        for (y, &(off, row)) in rows.iter().enumerate() {
            let row = row.trim_end();
            d.width = d.width.max(row.chars().count());
            for (x, (i, ch)) in row.char_indices().enumerate() {
                if ch != ' ' {
                    d.marks.push(([x as i32, y as i32, z as i32], ch, off + i));
                }
            }
        }
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_have_their_orders() {
        assert_eq!(turns(false, Turns::Free).len(), 8);
        assert_eq!(turns(false, Turns::Rotations).len(), 4);
        assert_eq!(turns(true, Turns::Free).len(), 48);
        assert_eq!(turns(true, Turns::Rotations).len(), 24);
        assert_eq!(turns(true, Turns::Fixed), vec![Turn::IDENTITY]);
    }

    #[test]
    fn pentomino_orientations() {
        // F has 8, L 8, I 2, X 1, T 4, in the plane.
        let f = [[1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 0]];
        let x = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]];
        let i = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0, 0]];
        let plane = turns(false, Turns::Free);
        assert_eq!(orientations(&f, &plane).len(), 8);
        assert_eq!(orientations(&x, &plane).len(), 1);
        assert_eq!(orientations(&i, &plane).len(), 2);
        assert_eq!(orientations(&f, &turns(false, Turns::Rotations)).len(), 4);
        // In space I points along any of three axes.
        assert_eq!(orientations(&i, &turns(true, Turns::Rotations)).len(), 3);
    }

    #[test]
    fn drawings() {
        let d = read_drawing("  #.\n  ##\n").unwrap();
        assert_eq!((d.width, d.height, d.depth), (2, 2, 1));
        let cells: Vec<Cell> = d.marks.iter().filter(|m| m.1 == '#').map(|m| m.0).collect();
        assert_eq!(cells, vec![[0, 0, 0], [0, 1, 0], [1, 1, 0]]);
        let d = read_drawing("##\n\n#.\n").unwrap();
        assert_eq!(d.depth, 2);
        assert_eq!(read_drawing("\n  \n"), Err(DrawingFault::Empty));
        assert_eq!(
            read_drawing("#\t#"),
            Err(DrawingFault::Control { at: 1, what: '\t' })
        );
        assert!(is_connected(&[[0, 0, 0], [0, 1, 0], [1, 1, 0]]));
        assert!(!is_connected(&[[0, 0, 0], [1, 1, 0]]));
    }
}
