//! Numbers as the summary says them, beside `util::numbers` (thousands grouped, bytes):
//! durations, node counts in three significant figures, and a count with its noun.

use crate::util::numbers::group;

/// A duration in the unit that reads best: "3.2 ms", "1.25 s", "2.5 h".
pub fn duration(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else if secs < 3600.0 {
        format!("{secs:.2} s")
    } else if secs < 48.0 * 3600.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.0} days", secs / 86400.0)
    }
}

/// A number of nodes in three significant figures: "2.49e8", "25746", "25.7".
pub(super) fn sci(x: f64) -> String {
    if !x.is_finite() {
        "unbounded".into()
    } else if x >= 1e6 {
        format!("{x:.2e}")
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// A count with its noun, singular for one: "1 node", "1,965 nodes".
pub(super) fn counted(n: u128, one: &str, many: &str) -> String {
    format!("{} {}", group(n), noun(n, one, many))
}

/// The noun for a count of `n`: `one` for 1, else `many`.
pub(super) fn noun<'a>(n: u128, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// The singular of a statistic's plural name ("bound prunes", "memo entries"), for a count
/// of one.
pub(super) fn singular(plural: &str) -> String {
    if let Some(stem) = plural.strip_suffix("ies") {
        format!("{stem}y")
    } else {
        plural.strip_suffix('s').unwrap_or(plural).to_string()
    }
}

/// The article before a number as it is read aloud: "an" where the reading starts with a
/// vowel sound (8, 11, 18, 80 to 89, 800 to 899, 8,000, 11,000, ...), else "a".
pub(super) fn article(n: usize) -> &'static str {
    // The leading group of three digits is what is read first ("eleven thousand ...").
    let mut lead = n;
    while lead >= 1000 {
        lead /= 1000;
    }
    let first = if lead >= 100 { lead / 100 } else { lead };
    if first == 8 || first == 11 || first == 18 || (80..90).contains(&first) {
        "an"
    } else {
        "a"
    }
}
