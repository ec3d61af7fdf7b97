//! The existence theorems against an exhaustive search that shares no code with the library.

use super::*;
use boardsolve::kinds::tour::TourReason;

/// An independent exhaustive search: does a knight's tour exist (optionally from `start`)?
fn exists_by_search(w: usize, h: usize, closed: bool, start: Option<(usize, usize)>) -> bool {
    let n = w * h;
    let nb: Vec<Vec<usize>> = (0..n)
        .map(|s| {
            let (r, c) = ((s / w) as i64, (s % w) as i64);
            KNIGHT
                .iter()
                .map(|&(dr, dc)| (r + dr, c + dc))
                .filter(|&(r2, c2)| r2 >= 0 && c2 >= 0 && r2 < h as i64 && c2 < w as i64)
                .map(|(r2, c2)| r2 as usize * w + c2 as usize)
                .collect()
        })
        .collect();
    fn go(
        cur: usize,
        len: usize,
        first: usize,
        closed: bool,
        nb: &[Vec<usize>],
        seen: &mut [bool],
        budget: &mut u64,
    ) -> bool {
        if len == seen.len() {
            return !closed || nb[cur].contains(&first);
        }
        *budget -= 1;
        assert!(*budget > 0, "exhaustive search over budget");
        let free = |s: usize, seen: &[bool]| nb[s].iter().filter(|&&t| !seen[t]).count();
        let mut next: Vec<usize> = nb[cur].iter().copied().filter(|&t| !seen[t]).collect();
        next.sort_by_key(|&t| free(t, seen));
        for t in next {
            seen[t] = true;
            if go(t, len + 1, first, closed, nb, seen, budget) {
                return true;
            }
            seen[t] = false;
        }
        false
    }
    let starts: Vec<usize> = match start {
        Some((r, c)) => vec![r * w + c],
        None if closed => vec![0],
        None => (0..n).collect(),
    };
    let mut budget = 200_000_000u64;
    starts.into_iter().any(|s| {
        let mut seen = vec![false; n];
        seen[s] = true;
        go(s, 1, s, closed, &nb, &mut seen, &mut budget)
    })
}

fn theorem_says(w: usize, h: usize, closed: bool, start: Option<(usize, usize)>) -> bool {
    let (o, _, _) = solve(
        &board(w, h, closed, start),
        None,
        "warnsdorff",
        Goal::First,
        false,
        1,
    );
    match o.status {
        Status::Solved => true,
        Status::NoSolution => {
            assert!(o.answer.reason.is_some(), "{w}x{h}: no reason given");
            assert_eq!(o.stats.nodes, 0, "{w}x{h}: settled without search");
            false
        }
        Status::Limit | Status::Part => panic!("{:?}", o.status),
    }
}

#[test]
fn existence_rules_match_exhaustive_search_up_to_7x7() {
    for h in 1..=7 {
        for w in 1..=7 {
            let open = theorem_says(w, h, false, None);
            assert_eq!(open, exists_by_search(w, h, false, None), "open {w}x{h}");
            // Closed tours on odd boards fall to the colour count; search the rest.
            let closed = theorem_says(w, h, true, None);
            if (w * h) % 2 == 0 {
                assert_eq!(closed, exists_by_search(w, h, true, None), "closed {w}x{h}");
            } else {
                assert!(!closed, "closed {w}x{h}");
            }
        }
    }
}

#[test]
fn start_square_rules_match_exhaustive_search() {
    // Every start where it is cheap: boards up to 6 wide (and 3x7, 3x8), plus the
    // right-coloured starts of 7x7 (the wrong colour there falls to the colour count).
    let mut boards: Vec<(usize, usize)> =
        vec![(4, 3), (3, 4), (7, 3), (3, 7), (8, 3), (5, 4), (4, 5)];
    boards.extend([(6, 4), (5, 5), (6, 5), (5, 6), (6, 6), (7, 7)]);
    for (w, h) in boards {
        for r in 0..h {
            for c in 0..w {
                let t = theorem_says(w, h, false, Some((r, c)));
                if (w, h) == (7, 7) && (r + c) % 2 == 1 {
                    assert!(!t);
                    continue;
                }
                assert_eq!(
                    t,
                    exists_by_search(w, h, false, Some((r, c))),
                    "{w}x{h} from ({r}, {c})"
                );
            }
        }
    }
}

#[test]
fn no_tour_reasons_name_the_theorem() {
    let reason = |t: &str| {
        let (o, _, _) = solve(t, None, "backtrack", Goal::First, false, 1);
        assert_eq!(o.status, Status::NoSolution);
        boardsolve::render::reason_text(&o.answer.reason.unwrap())
    };
    let typed = |t: &str| {
        let (o, _, _) = solve(t, None, "backtrack", Goal::First, false, 1);
        o.answer
            .reason
            .unwrap()
            .get::<TourReason>()
            .unwrap()
            .clone()
    };
    assert_eq!(
        typed(&board(5, 5, true, None)),
        TourReason::SchwenkOdd {
            size: "5x5".into(),
            squares: 25
        }
    );
    assert!(matches!(
        typed(&board(4, 4, false, None)),
        TourReason::OpenTable { .. }
    ));
    assert!(reason(&board(4, 4, false, None)).contains("no open knight's tour on 4x4"));
    assert!(reason(&board(8, 3, true, None)).contains("Schwenk"));
    assert!(reason(&board(5, 5, true, None)).contains("both sides of 5x5 are odd"));
    assert!(reason(&board(5, 5, false, Some((0, 1)))).contains("corners' colour"));
    assert!(reason(&board(7, 3, false, Some((1, 3)))).contains("centre"));
    let camel = "kind = \"tour\"\n[board]\nsize = 8\n[piece]\nmoves = \"C\"\n";
    assert!(reason(camel).contains("falls into 2 parts"));
}
