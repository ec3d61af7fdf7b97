use super::*;
use crate::engine::Standing;
use serde_json::json;

#[test]
fn standing_says_what_the_search_said() {
    let line = |s: Standing| standing_text(&s);
    let none = Standing::default();
    assert_eq!(line(none), "");
    assert_eq!(
        line(Standing {
            best: Some(40),
            bound: Some(34),
            subtrees: Some((37, 102)),
            ..none
        }),
        "best 40, bound 34, subtrees done 37/102"
    );
    assert_eq!(
        line(Standing {
            best: Some(14),
            found_by: Some("local search"),
            ..none
        }),
        "best 14 (local search)"
    );
    assert_eq!(
        line(Standing {
            bound: Some(12),
            branch: [(2, 3), (1, 4)],
            ..none
        }),
        "bound 12, branch 2/3 1/4"
    );
    assert_eq!(
        line(Standing {
            branch: [(2, 3), (0, 0)],
            probes: Some((150, 4000)),
            ..none
        }),
        "branch 2/3, probes 150/4000 (this worker's)"
    );
}

#[test]
fn groups_thousands() {
    assert_eq!(group(0), "0");
    assert_eq!(group(1965), "1,965");
    assert_eq!(group(14_772_512), "14,772,512");
}

#[test]
fn placement_text() {
    let p = Picture::Placement {
        width: 3,
        height: 2,
        holes: vec![false, false, true, false, false, false],
        pieces: vec![(0, 'N'), (5, 'N')],
        mixed: false,
    };
    assert_eq!(text_picture(&p), "N . #\n. . N\n");
}

#[test]
fn tour_text_is_right_aligned_from_one() {
    let p = Picture::Tour {
        width: 4,
        height: 3,
        number: Packed::from_slice(&[0, 3, 6, 9, 7, 10, 1, 4, 2, 5, 8, u32::MAX], 4),
        closed: false,
        cells: 11,
    };
    assert_eq!(text_picture(&p), " 1  4  7 10\n 8 11  2  5\n 3  6  9  #\n");
    assert_eq!(
        tour_order(
            4,
            match &p {
                Picture::Tour { number, .. } => number,
                _ => unreachable!(),
            }
        )[..3],
        [(0, 0), (1, 2), (2, 0)]
    );
}

/// A tour of 100x100 numbered row by row (the writers do not check it).
fn wide_tour() -> Picture {
    let numbers: Vec<u32> = (0..10_000).collect();
    Picture::Tour {
        width: 100,
        height: 100,
        number: Packed::from_slice(&numbers, 14),
        closed: false,
        cells: 10_000,
    }
}

/// A `stop` that says stop the `n`-th time it is asked.
fn stop_at(n: usize) -> impl FnMut() -> Option<StopReason> {
    let mut asked = 0;
    move || {
        asked += 1;
        (asked == n).then_some(StopReason::Time)
    }
}

#[test]
fn a_picture_written_under_a_clock_stops_between_rows() {
    let p = wide_tour();
    let mut buf = Vec::new();
    let stop = write_text_picture(&mut buf, &p, &mut stop_at(2)).unwrap();
    let stop = stop.expect("stopped");
    let text = String::from_utf8(buf).unwrap();
    assert_eq!(
        (stop.reason, stop.of, stop.unit),
        (StopReason::Time, 100, "rows")
    );
    assert!(stop.done > 0 && stop.done < 100, "{stop:?}");
    assert_eq!(text.lines().count(), stop.done);
    assert!(text.ends_with('\n'));
    // Whole when nothing says stop, and a small picture never asks.
    let mut buf = Vec::new();
    assert_eq!(
        write_text_picture(&mut buf, &p, &mut || None).unwrap(),
        None
    );
    assert_eq!(buf.iter().filter(|&&b| b == b'\n').count(), 100);
    let small = Picture::Placement {
        width: 8,
        height: 8,
        holes: vec![false; 64],
        pieces: vec![(3, 'Q')],
        mixed: false,
    };
    let mut never = || -> Option<StopReason> { panic!("asked") };
    write_text_picture(&mut Vec::new(), &small, &mut never).unwrap();
    write_json_picture(&mut Vec::new(), &small, &mut never).unwrap();
}

#[test]
fn a_tour_in_json_stopped_midway_is_closed_valid_json() {
    let p = wide_tour();
    // The first questions come while the visiting order is made: stop once it is
    // written from.
    let mut buf = Vec::new();
    let stop = write_json_picture(&mut buf, &p, &mut stop_at(4))
        .unwrap()
        .expect("stopped");
    assert_eq!((stop.unit, stop.of), ("squares", 10_000));
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    let squares = v.as_array().unwrap();
    assert_eq!(squares.len(), stop.done);
    assert!(stop.done > 0 && stop.done < 10_000, "{stop:?}");
    assert_eq!(squares[1], json!([0, 1]));
    // Stopped while the order is made: an empty array.
    let mut buf = Vec::new();
    let stop = write_json_picture(&mut buf, &p, &mut stop_at(1)).unwrap();
    assert_eq!(stop.map(|s| s.done), Some(0));
    assert_eq!(buf, b"[]");
}

/// Queens on the diagonals' knight steps: row r in column 2r mod n; one row left empty.
fn one_per_row(n: usize) -> Picture {
    let bits = Packed::width_for(n);
    let mut cols = Packed::new(n, bits);
    for r in 0..n {
        cols.set(r, (2 * r % n) as u32);
    }
    cols.set(1, u32::MAX);
    Picture::OnePerRow {
        width: n,
        height: n,
        symbol: 'Q',
        cols,
        pieces: n - 1,
    }
}

#[test]
fn one_piece_a_row_is_drawn_when_narrow_and_listed_when_wide() {
    assert_eq!(text_picture(&one_per_row(3)), "Q . .\n. . .\n. Q .\n");
    let text = text_picture(&one_per_row(100));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 101);
    assert_eq!(
        lines[0],
        "One line per row from the top: the column of its Q, counted from 0 at the left, as \
         [row, col] in puzzle files and JSON; - for a row without one"
    );
    assert_eq!(&lines[1..5], ["0", "-", "4", "6"]);
    assert_eq!(lines[100], "98");
    let mut buf = Vec::new();
    write_json_picture(&mut buf, &one_per_row(100), &mut || None).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 99);
    assert_eq!(v[1], json!([2, 4]));
}

#[test]
fn a_wide_placement_is_listed_by_row() {
    let p = Picture::Placement {
        width: 70,
        height: 3,
        holes: vec![false; 210],
        pieces: vec![(0, 'K'), (69, 'K'), (140, 'K')],
        mixed: false,
    };
    assert_eq!(
        text_picture(&p),
        "One line per row from the top: the columns of its Ks, counted from 0 at the left, \
         as [row, col] in puzzle files and JSON; - for a row without one\n0 69\n-\n0\n"
    );
}

#[test]
fn a_long_list_stops_with_the_clock_and_stays_well_formed() {
    let p = one_per_row(20_000);
    let mut buf = Vec::new();
    let stop = write_text_picture(&mut buf, &p, &mut stop_at(2))
        .unwrap()
        .expect("stopped");
    assert_eq!((stop.unit, stop.of), ("rows", 20_000));
    assert!(stop.done > 0 && stop.done < 20_000, "{stop:?}");
    let text = String::from_utf8(buf).unwrap();
    assert_eq!(text.lines().count(), stop.done + 1);
    assert!(text.ends_with('\n'));
    let mut buf = Vec::new();
    let stop = write_json_picture(&mut buf, &p, &mut stop_at(3))
        .unwrap()
        .expect("stopped");
    assert_eq!((stop.unit, stop.of), ("pieces", 19_999));
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(v.as_array().unwrap().len(), stop.done);
    assert!(stop.done > 0 && stop.done < 19_999, "{stop:?}");
}

#[test]
fn unfinished_output_says_where_it_stopped() {
    let at = Stop {
        reason: StopReason::Time,
        done: 1234,
        of: 8000,
        unit: "rows",
    };
    assert_eq!(
        unfinished_text(&Unfinished::Cut { solution: 1, at }),
        "output stopped at the time limit after 1,234 of 8,000 rows"
    );
    let at = Stop {
        reason: StopReason::Interrupted,
        ..at
    };
    assert_eq!(
        unfinished_text(&Unfinished::Cut { solution: 3, at }),
        "output stopped by an interrupt after 1,234 of 8,000 rows of solution 3"
    );
    assert_eq!(
        unfinished_text(&Unfinished::Unchecked(StopReason::Time)),
        "the solution found is not shown: the time limit came before its check was done"
    );
}

#[test]
fn stones_text_and_json() {
    let p = Picture::Stones {
        width: 3,
        height: 2,
        holes: vec![false, true, false, false, false, false],
        stones: vec![1, 0, 2, 0, 3, 0],
        colors: vec!["black".into(), "white".into(), "red".into()],
    };
    assert_eq!(text_picture(&p), "X # O\n. A .\n");
    let mut buf = Vec::new();
    write_json_picture(&mut buf, &p, &mut || None).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(v, json!([[0, -1, 1], [-1, 2, -1]]));
}

#[test]
fn an_article_as_the_number_is_read() {
    use super::numbers::article;
    for n in [
        8, 11, 18, 80, 86, 89, 800, 899, 8000, 11_000, 18_500, 80_000, 8_000_000,
    ] {
        assert_eq!(article(n), "an", "{n}");
    }
    for n in [
        1, 6, 10, 12, 16, 70, 100, 108, 180, 1100, 1800, 28, 1_000_000,
    ] {
        assert_eq!(article(n), "a", "{n}");
    }
}

#[test]
fn counts_of_one_take_the_singular() {
    use super::numbers::{counted, singular};
    assert_eq!(counted(1, "node", "nodes"), "1 node");
    assert_eq!(counted(1965, "node", "nodes"), "1,965 nodes");
    assert_eq!(singular("bound prunes"), "bound prune");
    assert_eq!(singular("memo entries"), "memo entry");
    let s = summary_text(&ModelSummary::Cover {
        items: 1,
        primary: 1,
        options: 1,
    });
    assert_eq!(s, "1 item (1 primary), 1 option");
    let s = summary_text(&ModelSummary::Independent {
        count: Some(8),
        piece: "Q".into(),
        width: 8,
        height: 8,
        mixed: Vec::new(),
        givens: 0,
    });
    assert_eq!(s, "8 x Q on an 8x8 board");
}

#[test]
fn the_kinds_refusals_and_violations_in_words() {
    use crate::engine::Refusal;
    use crate::kinds::domination::OptionError;
    use crate::kinds::independent::{IndependentRefusal, Pattern};
    use crate::kinds::tour::{SymmetryKeeps, TourBug, TourReason, TourRefusal};
    use crate::kinds::{Line, NoGraph, Violation};
    use crate::spec::Kind;
    let said = |r: Refusal| refusal_text(&r);
    assert_eq!(
        said(
            IndependentRefusal::WholeBoard {
                squares: 10_000,
                max: 4096
            }
            .into()
        ),
        "needs the whole board's attack sets: 10,000 squares, more than 4,096"
    );
    assert_eq!(
        said(
            IndependentRefusal::ConstructPattern {
                pattern: Pattern::Knights,
                count: 4,
                most: 3,
                width: 2,
                height: 3
            }
            .into()
        ),
        "4 pieces: the formula places at most 3 on 2x3, one on every square of one colour"
    );
    assert_eq!(
        said(TourRefusal::UniqueSymmetry(SymmetryKeeps::TwoCells).into()),
        "--unique: a symmetry of this board fixes two cells, and the tours it keeps are not \
         counted by the sweep; accepted on boards whose symmetries' fixed tours it counts \
         (without holes: both sides even, and a square's side a multiple of 4: 8x8 and 6x8, not \
         6x6; holes decide which symmetries a board keeps, and so which apply); `backtrack` \
         counts small boards up to symmetry"
    );
    assert_eq!(
        said(TourRefusal::PartBits { bits: 130.4 }.into()),
        "a part's count is kept in 128 bits, and the paths of this board may need up to 130; \
         accepted without --part"
    );
    assert_eq!(
        violation_text(&Violation::SharedLine {
            row: 1,
            col: 0,
            line: Line::AntiDiagonal
        }),
        "the piece on [1, 0] shares its anti-diagonal with another"
    );
    assert_eq!(
        violation_text(&Violation::FollowedTwice {
            number: 9,
            square: "c3".into(),
            next: 10,
            on: ["a1".into(), "h8".into()]
        }),
        "move 9 on c3 is not followed by a move to move 10, which is on a1 and h8 (twice)"
    );
    assert_eq!(
        no_graph_text(&NoGraph::Kind(Kind::Lines)),
        "--format dot writes the move graph of kind \"tour\"; kind \"lines\" has none"
    );
    assert_eq!(
        reason_text(&TourReason::Bug(TourBug::NoStripTour { rows: 3, len: 26 }).into()),
        "no tour of the 3x26 strip was found (a bug)"
    );
    let range = OptionError::OutOfRange {
        key: "bnb.root_steps".into(),
        value: 2.5,
        min: 0.0,
        max: 1e6,
        integer: true,
    };
    assert_eq!(
        range.to_string(),
        "bnb.root_steps = 2.5: accepted: whole numbers 0 to 1000000"
    );
}

#[test]
fn no_cover_names_the_rules_the_puzzle_has_and_no_others() {
    use crate::kinds::domination::DominationReason;
    let text = |independent, counts, givens| {
        reason_text(
            &DominationReason::NoCover {
                independent,
                counts,
                givens,
            }
            .into(),
        )
    };
    assert_eq!(
        text(false, true, false),
        "no placement of the pieces within their counts covers the board"
    );
    assert_eq!(
        text(true, false, false),
        "no placement of non-attacking pieces covers the board"
    );
    assert_eq!(
        text(false, false, true),
        "no placement of the pieces holding the givens covers the board"
    );
    assert_eq!(
        text(true, true, true),
        "no placement of non-attacking pieces within their counts and holding the givens \
         covers the board"
    );
}
