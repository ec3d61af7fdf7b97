//! Numbers as the summary says them, beside `util::numbers` (thousands grouped, bytes):
//! durations, and node counts in three significant figures.

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
