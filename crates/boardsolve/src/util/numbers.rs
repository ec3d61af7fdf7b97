//! Numbers as people read them: digits in groups of three, sizes in powers of 1024. Leaf
//! utilities, so that a file's reader can say how large a thing is in the words the answers
//! use.

/// Thousands separators, as the summary line prints counts.
pub fn group(n: u128) -> String {
    group_digits(&n.to_string())
}

/// Decimal digits in groups of three ("12,988,816"), for counts of any size.
pub fn group_digits(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in bytes in powers of 1024, as `--memory` takes them: "512 bytes", "3.5 GiB",
/// "954 MiB".
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if v < 10.0 {
        format!("{v:.1} {}", UNITS[unit])
    } else {
        format!("{v:.0} {}", UNITS[unit])
    }
}

/// Two sizes said so that they read apart: with the exact bytes when they round alike.
pub fn bytes_apart(a: u64, b: u64) -> (String, String) {
    let (x, y) = (bytes(a), bytes(b));
    if x == y && a != b {
        (
            format!("{x} ({} bytes)", group(a as u128)),
            format!("{y} ({} bytes)", group(b as u128)),
        )
    } else {
        (x, y)
    }
}
