//! Solutions as text, one picture after another: placements and stones as grids of letters,
//! options as lines of item names, tours as right-aligned move numbers streamed row by row.

use std::fmt::Write as _;

use super::{Picture, stone_letter};

pub fn text_picture(p: &Picture) -> String {
    let mut s = String::new();
    match p {
        Picture::Tour { .. } => {
            let mut buf = Vec::new();
            let _ = write_text_picture(&mut buf, p);
            s = String::from_utf8_lossy(&buf).into_owned();
        }
        Picture::Placement {
            width,
            height,
            holes,
            pieces,
        } => {
            // Holes print as '#': they are not squares, and must not read as empty ones.
            let mut grid: Vec<char> = holes.iter().map(|&h| if h { '#' } else { '.' }).collect();
            for &(sq, c) in pieces {
                grid[sq] = c;
            }
            for r in 0..*height {
                let row: Vec<String> = grid[r * width..(r + 1) * width]
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                let _ = writeln!(s, "{}", row.join(" ").trim_end());
            }
        }
        Picture::Options(opts) => {
            for o in opts {
                let _ = writeln!(s, "{}", o.join(" "));
            }
        }
        Picture::Stones {
            width,
            height,
            holes,
            stones,
            ..
        } => {
            for r in 0..*height {
                let row: Vec<String> = (r * width..(r + 1) * width)
                    .map(|sq| match (holes[sq], stones[sq]) {
                        (true, _) => "#".to_string(),
                        (false, 0) => ".".to_string(),
                        (false, v) => stone_letter(v - 1).to_string(),
                    })
                    .collect();
                let _ = writeln!(s, "{}", row.join(" "));
            }
        }
    }
    s
}

/// Write a picture as text; tours stream row by row, so a board of 10^8 squares needs no
/// second copy in memory.
pub fn write_text_picture(w: &mut dyn std::io::Write, p: &Picture) -> std::io::Result<()> {
    let Picture::Tour {
        width,
        height,
        number,
        cells,
        ..
    } = p
    else {
        return w.write_all(text_picture(p).as_bytes());
    };
    let none = number.ones();
    // The widest number sets the column width: the count of squares on a valid tour. The
    // numbers printed are at most `none` (k + 1 for k below it), so when that is no wider
    // than the count no pass over the numbers is needed to be sure.
    let width_of = |v: u64| v.max(1).to_string().len();
    let digits = if width_of(*cells as u64) == width_of(none as u64) {
        width_of(*cells as u64)
    } else {
        let top = number
            .iter()
            .filter(|&k| k != none)
            .map(|k| k as u64 + 1)
            .max()
            .unwrap_or(0);
        width_of(top.max(*cells as u64))
    };
    // Each row is formatted into one buffer of fixed-width fields: spaces first, then the
    // digits written from the right two at a time (a row of 10^4 numbers, 10^4 times).
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
                                2021222324252627282930313233343536373839\
                                4041424344454647484950515253545556575859\
                                6061626364656667686970717273747576777879\
                                8081828384858687888990919293949596979899";
    let stride = digits + 1;
    let mut line = vec![b' '; stride * width];
    let mut row = vec![0u32; *width];
    for r in 0..*height {
        line.fill(b' ');
        number.get_run(r * width, &mut row);
        for (c, &k) in row.iter().enumerate() {
            let field = &mut line[c * stride..c * stride + digits];
            // Moves print from 1, right-aligned; holes print as '#'.
            if k == none {
                field[digits - 1] = b'#';
                continue;
            }
            // k < none, so k + 1 fits; u32 divisions are the cheaper multiplications.
            let mut v = k + 1;
            let mut i = digits;
            while v >= 100 {
                let d = (v % 100) as usize * 2;
                v /= 100;
                i -= 2;
                field[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
            }
            if v >= 10 {
                let d = v as usize * 2;
                field[i - 2..i].copy_from_slice(&PAIRS[d..d + 2]);
            } else {
                field[i - 1] = b'0' + v as u8;
            }
        }
        if let Some(last) = line.last_mut() {
            *last = b'\n';
        }
        w.write_all(&line)?;
    }
    Ok(())
}
