//! The constellations of the N-Queens count: the four border queens of a sub-problem,
//! enumerated once and kept in a canonical orientation under the 8 symmetries of the
//! square, with the size of each one's stabiliser (its weight), and the squares each leaves
//! free row by row. Apart from the search because they are built once per board, before
//! any sub-problem, and the part list (`--part`) is made of them.

/// The largest board accepted: a row is a `u32` bitmask. 27 is the largest n whose count is
/// known (years of distributed computing), so 32 leaves nothing reachable out.
pub const MAX_N: usize = 32;

pub(super) type Bits = u32;

/// The four border queens of a sub-problem. With a corner queen, top and left are both 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Constellation {
    /// Column of the queen in row 0.
    pub(super) top: u8,
    /// Column of the queen in row n-1.
    pub(super) bottom: u8,
    /// Row of the queen in column 0.
    pub(super) left: u8,
    /// Row of the queen in column n-1.
    pub(super) right: u8,
    /// Number of symmetries of the square that map this constellation to itself (1, 2 or 4).
    pub(super) stabiliser: u8,
}

/// The 8 symmetries of the square on (row, column), `m` = n-1.
fn transform(g: usize, m: usize, (r, c): (usize, usize)) -> (usize, usize) {
    match g {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

fn attacks((r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> bool {
    r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2
}

/// Canonical constellations in a fixed order (the order only affects load balance).
pub(super) fn constellations(n: usize) -> Vec<Constellation> {
    let m = n - 1;
    let mut out = Vec::new();
    // A corner queen at (0,0); r < b picks one of the solution and its transpose.
    for right in 1..m {
        for bottom in right + 1..m {
            out.push(Constellation {
                top: 0,
                bottom: bottom as u8,
                left: 0,
                right: right as u8,
                stabiliser: 1,
            });
        }
    }
    for top in 1..m {
        for bottom in 1..m {
            for left in 1..m {
                for right in 1..m {
                    let queens = [(0, top), (m, bottom), (left, 0), (right, m)];
                    let clash = (0..4).any(|i| (i + 1..4).any(|j| attacks(queens[i], queens[j])));
                    if clash {
                        continue;
                    }
                    let key = (top, bottom, left, right);
                    let mut stabiliser = 0;
                    let mut canonical = true;
                    for g in 0..8 {
                        let mut image = (0, 0, 0, 0);
                        for &q in &queens {
                            let (r, c) = transform(g, m, q);
                            if r == 0 {
                                image.0 = c;
                            } else if r == m {
                                image.1 = c;
                            } else if c == 0 {
                                image.2 = r;
                            } else {
                                image.3 = r;
                            }
                        }
                        if image < key {
                            canonical = false;
                            break;
                        }
                        if image == key {
                            stabiliser += 1;
                        }
                    }
                    if canonical {
                        out.push(Constellation {
                            top: top as u8,
                            bottom: bottom as u8,
                            left: left as u8,
                            right: right as u8,
                            stabiliser,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Per row, the squares the search may not use because of the border queens: their lines,
/// the two border columns, and in the two rows of the side queens everything but that queen.
pub(super) fn blocked_rows(n: usize, c: &Constellation) -> [Bits; MAX_N] {
    let m = n - 1;
    let off_board: Bits = if n == 32 { 0 } else { !0 << n };
    let queens = [
        (0, c.top as usize),
        (m, c.bottom as usize),
        (c.left as usize, 0),
        (c.right as usize, m),
    ];
    let mut blocked = [!0; MAX_N];
    for (row, slot) in blocked.iter_mut().enumerate().take(m).skip(1) {
        let mut b = off_board | 1 | 1 << m;
        for &(qr, qc) in &queens {
            b |= 1 << qc;
            let d = row.abs_diff(qr);
            if qc + d < n {
                b |= 1 << (qc + d);
            }
            if qc >= d {
                b |= 1 << (qc - d);
            }
        }
        if row == c.left as usize {
            b = !1;
        } else if row == c.right as usize {
            b = !(1 << m);
        }
        *slot = b;
    }
    blocked
}
