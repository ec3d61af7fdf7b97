//! The model's tour check against tours the strategies build, each kind of fault in turn.

use super::divide::Divide;
use super::model::Model;
use super::warnsdorff::Warnsdorff;
use crate::engine::{Limits, Run, Task};
use crate::kinds::{Strategy, Violation};
use crate::spec::{KindSpec, Overrides, Spec};
use crate::util::Packed;

fn model(board: &str) -> Model {
    let text = format!("kind = \"tour\"\n[board]\n{board}\n");
    let spec = Spec::parse("t.toml", &text, &Overrides::default()).unwrap();
    let KindSpec::Tour(rules) = &spec.rules else {
        panic!("a tour puzzle");
    };
    Model::compile(&spec, rules).unwrap()
}

/// A tour found by `strategy`, as packed move numbers.
fn tour(m: &Model, strategy: &dyn Strategy<Model>) -> Packed {
    let mut order = Vec::new();
    let a = {
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            order = s.to_vec();
            std::ops::ControlFlow::Break(())
        }));
        strategy.solve(m, &Task::default(), &mut run)
    };
    match a.compact {
        Some(x) => x,
        None => {
            assert!(!order.is_empty(), "no tour");
            m.numbers(&order)
        }
    }
}

/// The check rejects `x` with a violation that `fits`.
fn rejects(m: &Model, x: &Packed, what: &str, fits: impl Fn(&Violation) -> bool) {
    match m.check_numbers(x) {
        Ok(()) => panic!("{what}: accepted"),
        Err(e) => assert!(fits(&e), "{what}: {e:?}"),
    }
}

/// A square whose number is not followed by the next one a move away.
fn no_successor(v: &Violation) -> bool {
    matches!(
        v,
        Violation::NotFollowed { .. }
            | Violation::FollowedFar { .. }
            | Violation::FollowedTwice { .. }
            | Violation::LastNotBeforeFirst { .. }
    )
}

/// The square holding move number `k`.
fn square_of(x: &Packed, k: u32) -> usize {
    x.iter().position(|v| v == k).unwrap()
}

#[test]
fn the_check_accepts_tours_and_rejects_each_kind_of_fault() {
    let m = model("size = 8\n[rules]\nclosed = true");
    let x = tour(&m, &Divide);
    m.check_numbers(&x).unwrap();
    let n = m.cells as u32;

    // A duplicated number (move 10 on move 20's square): one of the two squares
    // numbered 10 has no move to 11, or move 19 none to 20, whichever comes first.
    let mut bad = x.clone();
    bad.set(square_of(&x, 19), 9);
    rejects(&m, &bad, "duplicate", no_successor);
    // The one to be met first in square order says move 20 is gone.
    let mut bad = x.clone();
    let (s19, s20) = (square_of(&x, 18), square_of(&x, 19));
    bad.set(s20, 9);
    if s19 < s20 && s19 < square_of(&x, 9) {
        rejects(&m, &bad, "missing", |v| {
            matches!(v, Violation::NotFollowed { next: 20, .. })
        });
    }
    // A number missing at the start: move 1 appears nowhere.
    let mut bad = x.clone();
    bad.set(square_of(&x, 0), 5);
    rejects(&m, &bad, "no first", no_successor);
    // Two numbers swapped: each is on a square, but not a move away.
    let mut bad = x.clone();
    let (a, c) = (square_of(&x, 30), square_of(&x, 40));
    bad.set(a, 40);
    bad.set(c, 30);
    rejects(&m, &bad, "swapped", |v| {
        matches!(v, Violation::FollowedFar { .. })
    });
    // Out of range, and a square with no number.
    let mut bad = x.clone();
    bad.set(7, n);
    rejects(&m, &bad, "out of range", |v| {
        matches!(
            v,
            Violation::NumberBeyond {
                number: 65,
                of: 64,
                ..
            }
        )
    });
    let mut bad = x.clone();
    bad.set(7, u32::MAX);
    rejects(&m, &bad, "sentinel", |v| {
        matches!(v, Violation::NoNumber { .. })
    });
    // A given start elsewhere.
    let from = model("size = 8\n[rules]\nclosed = true\nstart = [3, 4]");
    rejects(&from, &x, "start", |v| {
        matches!(v, Violation::StartsElsewhere { .. })
    });
    // Every square numbered last: in range, nothing needs a successor on an open tour;
    // only the missing first move gives it away.
    let open = model("size = 8\n[rules]\nclosed = false");
    let all_last = Packed::filled(64, x.bits(), n - 1);
    rejects(&open, &all_last, "all last", |v| *v == Violation::NoFirst);
}

#[test]
fn the_check_rejects_an_open_tour_as_closed() {
    // 5x5 has open tours only (odd), so an open one cannot close.
    let open = model("size = 5\n[rules]\nclosed = false");
    let x = tour(&open, &Warnsdorff);
    open.check_numbers(&x).unwrap();
    let closed = model("size = 5\n[rules]\nclosed = true");
    rejects(&closed, &x, "not closing", |v| {
        matches!(
            v,
            Violation::NotClosed | Violation::LastNotBeforeFirst { .. }
        )
    });
}

#[test]
fn the_check_rejects_numbered_holes() {
    let m = model("size = 8\nholes = [\"a1\"]\n[rules]\nclosed = false");
    let x = tour(&m, &Warnsdorff);
    m.check_numbers(&x).unwrap();
    let hole = (0..m.board.squares())
        .find(|&s| m.board.is_hole(s))
        .expect("a1 is a hole");
    assert_eq!(x.get(hole), x.ones());
    let mut bad = x.clone();
    bad.set(hole, 3);
    let numbered_wrongly = |v: &Violation| matches!(v, Violation::NumberedWrongly { .. });
    rejects(&m, &bad, "numbered hole", numbered_wrongly);
    let mut bad = x.clone();
    bad.set(square_of(&x, 12), u32::MAX);
    rejects(&m, &bad, "unnumbered square", numbered_wrongly);
}

/// Boards wider than one stripe of the check, and leapers other than the knight.
#[test]
fn the_check_works_across_stripes_and_for_long_leaps() {
    let wide = model("width = 4200\nheight = 5\n[rules]\nclosed = true");
    let x = tour(&wide, &Divide);
    wide.check_numbers(&x).unwrap();
    for k in [0u32, 4095 * 5, 20_999] {
        let mut bad = x.clone();
        let (a, c) = (square_of(&x, k), square_of(&x, (k + 7) % 21_000));
        bad.set(a, (k + 7) % 21_000);
        bad.set(c, k);
        assert!(wide.check_numbers(&bad).is_err(), "swap at {k}");
    }
    // Wazir steps and three-square leaps: columns of 4 go 1 2 3 0 (a leap up) and
    // 0 3 2 1 (a leap down) in turn, joined at the top or the next row.
    let m =
        model("width = 9\nheight = 4\n[piece]\nleaps = [[1, 0], [3, 0]]\n[rules]\nclosed = false");
    let mut order = Vec::new();
    for c in 0..9 {
        let col: [usize; 4] = if c % 2 == 0 {
            [1, 2, 3, 0]
        } else {
            [0, 3, 2, 1]
        };
        order.extend(col.iter().map(|&r| r * 9 + c));
    }
    m.check(&order).unwrap();
    let x = m.numbers(&order);
    m.check_numbers(&x).unwrap();
    let mut bad = x.clone();
    bad.set(order[5], 6);
    bad.set(order[6], 5);
    rejects(&m, &bad, "leaper swap", |v| {
        matches!(v, Violation::FollowedFar { .. })
    });
}
