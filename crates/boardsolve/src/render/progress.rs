//! The progress line a display shows while a search runs: time so far, the pace, what is
//! found, the share done and a guess at what is left.

use crate::engine::Reading;
use crate::util::numbers::group;

/// A span of seconds as a progress line reads it: "42 s", "3 min 05 s", "2 h 07 min".
fn span(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        3600..172_800 => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
        _ => format!("{} days", s / 86_400),
    }
}

/// `12 s | 48,113,296 nodes (4.0 M/s) | 1,024 solutions | 37% of 8,400 subtrees, about
/// 20 s left | best 12, bound 11`. The share is of the subtrees done (a list shared out to
/// threads), else of the branches taken at the top of the tree; the time left assumes the
/// rest goes at the pace so far, so it is written as a guess.
pub fn progress_line(r: &Reading) -> String {
    fields(r, Nodes::WithRate).join(" | ")
}

/// The progress line in at most `width` characters: the nodes' rate goes first, then the
/// nodes, then the solutions, so that the share done, the time left and where the search
/// stands (a sweep's square and its bytes on disk) stay; only then is the line cut.
pub fn progress_line_within(r: &Reading, width: usize) -> String {
    for nodes in [
        Nodes::WithRate,
        Nodes::Alone,
        Nodes::Not,
        Nodes::NorSolutions,
    ] {
        let line = fields(r, nodes).join(" | ");
        if line.chars().count() <= width {
            return line;
        }
    }
    let line = fields(r, Nodes::NorSolutions).join(" | ");
    line.chars().take(width).collect()
}

/// How much of the nodes (and solutions) a progress line says.
#[derive(Clone, Copy, PartialEq)]
enum Nodes {
    WithRate,
    Alone,
    Not,
    /// Neither the nodes nor the solutions found.
    NorSolutions,
}

fn fields(r: &Reading, nodes: Nodes) -> Vec<String> {
    let secs = r.elapsed.as_secs_f64();
    let rate = r.nodes as f64 / secs.max(1e-9);
    // Branch and bound spends tens of microseconds a node: M/s would read 0.0.
    let rate = if rate >= 1e6 {
        format!("{:.1} M/s", rate / 1e6)
    } else {
        format!("{:.1} k/s", rate / 1e3)
    };
    let mut parts = vec![span(secs)];
    let counted = format!(
        "{} node{}",
        group(u128::from(r.nodes)),
        if r.nodes == 1 { "" } else { "s" }
    );
    match nodes {
        Nodes::WithRate => parts.push(format!("{counted} ({rate})")),
        Nodes::Alone => parts.push(counted),
        Nodes::Not | Nodes::NorSolutions => {}
    }
    let mut standing = r.standing;
    // Sweeps that run side by side each say their square: none of them is where the run is.
    if !r.in_turn && r.items.is_some_and(|(_, of)| of > 1) {
        standing.sweep = None;
    }
    let status = super::standing_text(&standing);
    // An optimisation reports its best so far in its status; a count of 0 says nothing.
    if (r.solutions > 0 || status.is_empty()) && nodes != Nodes::NorSolutions {
        parts.push(format!(
            "{} solution{}",
            group(u128::from(r.solutions)),
            if r.solutions == 1 { "" } else { "s" }
        ));
    }
    if let Some(f) = r.share_done() {
        let subtrees = |of: u128| {
            let noun = if of == 1 { "subtree" } else { "subtrees" };
            format!(" of {} {noun}", group(of))
        };
        let of = match (r.standing.subtrees, r.items) {
            (Some((_, of)), _) => subtrees(of as u128),
            (None, Some((_, of))) => subtrees(u128::from(of)),
            _ => " of the top branches".to_string(),
        };
        let left = r
            .seconds_left()
            .map(|s| format!(", about {} left", span(s)))
            .unwrap_or_default();
        parts.push(format!("{:.0}%{of}{left}", f * 100.0));
    }
    if !status.is_empty() {
        parts.push(status);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Standing;
    use std::time::Duration;

    fn reading(secs: u64, items: Option<(u64, u64)>) -> Reading {
        Reading {
            elapsed: Duration::from_secs(secs),
            nodes: 4_000_000,
            solutions: 1,
            standing: Standing::default(),
            items,
            in_turn: false,
        }
    }

    #[test]
    fn a_shared_list_gives_the_share_and_the_time_left() {
        let line = progress_line(&reading(10, Some((25, 100))));
        assert_eq!(
            line,
            "10 s | 4,000,000 nodes (400.0 k/s) | 1 solution | 25% of 100 subtrees, about 30 s left"
        );
    }

    #[test]
    fn without_a_list_or_branches_no_guess_is_made() {
        let line = progress_line(&reading(75, None));
        assert_eq!(line, "1 min 15 s | 4,000,000 nodes (53.3 k/s) | 1 solution");
    }

    #[test]
    fn the_top_branches_give_a_share_when_there_is_no_list() {
        let mut r = reading(20, None);
        r.standing.branch = [(3, 4), (2, 2)];
        // Branch 3 of 4, its second half: 2.5 of 4 done.
        assert_eq!(r.share_done(), Some(0.625));
        assert!(progress_line(&r).contains("62% of the top branches, about 12 s left"));
    }

    #[test]
    fn a_sweep_says_its_square_unless_sweeps_run_side_by_side() {
        let mut r = reading(30, None);
        r.solutions = 0;
        r.standing.sweep = Some(crate::engine::SweepStanding {
            square: 38,
            of: 64,
            states: 161_467_488,
            on_disk: 9_878_000_000,
        });
        assert_eq!(
            progress_line(&r),
            "30 s | 4,000,000 nodes (133.3 k/s) | square 38 of 64, 161,467,488 states, 9.2 GiB on disk"
        );
        // One sweep of a part's list of one is still where the run is.
        r.items = Some((0, 1));
        let line = progress_line(&r);
        assert!(line.contains("0% of 1 subtree | square 38 of 64"), "{line}");
        r.items = Some((3, 50));
        let line = progress_line(&r);
        assert!(
            line.ends_with("6% of 50 subtrees, about 7 min 50 s left"),
            "{line}"
        );
        // Sweeps one after another on one thread: the one in hand is where the run is.
        r.in_turn = true;
        let line = progress_line(&r);
        assert!(
            line.ends_with(
                "6% of 50 subtrees, about 7 min 50 s left | square 38 of 64, \
                            161,467,488 states, 9.2 GiB on disk"
            ),
            "{line}"
        );
        // A narrow terminal loses the rate, then the nodes, before the square's bytes.
        let full = progress_line(&r);
        assert_eq!(progress_line_within(&r, full.len()), full);
        let line = progress_line_within(&r, full.len() - 1);
        assert_eq!(line, full.replace(" (133.3 k/s)", ""));
        let line = progress_line_within(&r, 110);
        assert_eq!(
            line,
            "30 s | 6% of 50 subtrees, about 7 min 50 s left | square 38 of 64, 161,467,488 \
             states, 9.2 GiB on disk"
        );
        assert_eq!(progress_line_within(&r, 10), "30 s | 6% ");
        // Solutions found go after the nodes.
        r.solutions = 1_245_928_048;
        let line = progress_line_within(&r, 110);
        assert!(line.contains("7 min 50 s left | square 38"), "{line}");
        assert!(!line.contains("solutions"), "{line}");
    }
}
