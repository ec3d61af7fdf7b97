//! Tests of `bnb`'s search: the corner cells, the pruning rules against exhaustive search,
//! the workers, the parts and the estimate.

use super::super::model::Model;
use super::search::{Aim, Reach, Search, Symmetry};
use crate::board::Board;
use crate::board::betza::Piece;
use crate::engine::{Limits, Partial, PartialWork, Run, Stats, Task, TreeEstimate};

fn knights(n: usize, independent: bool) -> Model {
    let piece = Piece::parse("N").expect("the knight");
    Model::new(Board::new(n, n), piece, 'N', independent)
}

fn minimum(m: &Model, symmetry: bool, threads: usize) -> Vec<usize> {
    let task = Task {
        goal: crate::engine::Goal::Minimize,
        unique: false,
        threads,
        ..Task::default()
    };
    let mut s = Search::new(m, &task);
    if !symmetry {
        // As `search_minimum` does, with the symmetries left alone.
        s.aim = Aim::Minimize(Symmetry::Ignored);
        s.start(&mut Run::new(Limits::default()));
        return s.best.take().expect("a placement");
    }
    s.search_minimum(&mut Run::new(Limits::default()));
    s.best.take().expect("a placement")
}

/// The corner cells partition the placements: the canonical combinations' orbits add up
/// to every combination (none dropped by the size bar here), and each combination's
/// image under a symmetry is a combination.
#[test]
fn corner_combinations_cover_every_orbit() {
    for (piece, n, per_corner) in [("N", 8, 4), ("N", 11, 4), ("K", 7, 8)] {
        let m = Model::new(
            Board::new(n, n),
            Piece::parse(piece).expect("a piece"),
            'X',
            false,
        );
        let mut s = Search::new(&m, &Task::default());
        s.aim = Aim::Minimize(Symmetry::Broken);
        let subtrees = s.corner_subtrees().expect("the corners qualify");
        let orbits: usize = subtrees
            .iter()
            .map(|t| 8 / (t.sym.count_ones() as usize + 1))
            .sum();
        assert_eq!(
            orbits,
            per_corner * per_corner * per_corner * per_corner,
            "{piece} {n}"
        );
        for t in &subtrees {
            assert!(t.placed.len() >= 4 && m.symmetries.len() == 8);
        }
    }
    // Queens: a corner has too many coverers; a 6x10 board keeps 4 symmetries.
    let q = Model::new(Board::new(8, 8), Piece::parse("Q").unwrap(), 'Q', false);
    let mut s = Search::new(&q, &Task::default());
    s.aim = Aim::Minimize(Symmetry::Broken);
    assert!(s.corner_subtrees().is_none());
}

/// Breaking symmetry by corner cells keeps the optimum: against the search with no
/// symmetry broken, on squares, rectangles and a holed board, both variants.
#[test]
fn corner_cells_keep_the_optimum() {
    let mut boards = vec![Board::new(7, 7), Board::new(8, 8), Board::new(6, 9)];
    let mut holed = Board::new(9, 9);
    holed.set_hole(40);
    boards.push(holed);
    for board in boards {
        for piece in ["N", "K", "NW"] {
            for independent in [false, true] {
                let m = Model::new(
                    board.clone(),
                    Piece::parse(piece).expect("a piece"),
                    'X',
                    independent,
                );
                let want = minimum(&m, false, 1);
                m.check(&want).expect("a valid placement");
                for threads in [1, 2] {
                    let got = minimum(&m, true, threads);
                    m.check(&got).expect("a valid placement");
                    assert_eq!(
                        got.len(),
                        want.len(),
                        "{piece} {}x{} independent={independent}",
                        board.width,
                        board.height
                    );
                }
            }
        }
    }
}

/// The workers find the optimum themselves when no heuristic gives them a start: the
/// shared incumbent goes down from nothing and every worker prunes by it.
#[test]
fn parallel_search_finds_the_optimum_without_an_incumbent() {
    // OEIS A006075 and A342576, n = 6..9.
    for (independent, table) in [(false, [8, 10, 12, 14]), (true, [8, 13, 14, 14])] {
        for (i, &want) in table.iter().enumerate() {
            let m = knights(6 + i, independent);
            let task = Task {
                goal: crate::engine::Goal::Minimize,
                unique: false,
                threads: 2,
                ..Task::default()
            };
            let mut s = Search::new(&m, &task);
            s.aim = Aim::Minimize(Symmetry::Broken);
            let mut run = Run::new(Limits::default());
            let subtrees = s.top_subtrees(&mut run).expect("no limit");
            s.pool(subtrees, &mut run);
            let best = s.best.take().expect("a placement");
            assert_eq!(best.len(), want, "independent={independent} n={}", 6 + i);
            m.check(&best).expect("a valid placement");
        }
    }
}

/// The fewest pieces covering the board, by plain exhaustive search (branch on the
/// first uncovered square, every allowed coverer in turn): the test's own answer.
fn exhaustive_minimum(m: &Model) -> usize {
    fn go(m: &Model, unc: &[u64], alw: &[u64], k: usize, best: &mut usize) {
        if k >= *best {
            return;
        }
        let Some(t) = crate::util::ones(unc).next() else {
            *best = k;
            return;
        };
        let mut alw = alw.to_vec();
        for c in crate::util::ones(m.coverers.row(t)).collect::<Vec<_>>() {
            if alw[c >> 6] >> (c & 63) & 1 == 0 {
                continue;
            }
            let unc2: Vec<u64> = unc
                .iter()
                .zip(m.cover.row(c))
                .map(|(u, v)| u & !v)
                .collect();
            let alw2: Vec<u64> = alw
                .iter()
                .zip(m.conflict.row(c))
                .map(|(a, v)| a & !v)
                .collect();
            go(m, &unc2, &alw2, k + 1, best);
            alw[c >> 6] &= !(1u64 << (c & 63));
        }
    }
    let mut best = usize::MAX;
    go(m, &m.all, &m.all, 0, &mut best);
    best
}

/// The search with all its pruning rules (replaceable pieces and pairs, dominated
/// siblings, symmetry, reduced costs), from no incumbent, against exhaustive search on random
/// boards with holes and random leapers, plain and independent, with and without the
/// symmetries: the same optimum, and a valid placement of that size.
#[test]
fn search_from_scratch_matches_exhaustive_search_on_random_boards() {
    let mut rng = crate::util::Rng(0x9e37_79b9_7f4a_7c15);
    let pieces = ["N", "K", "W", "F", "WD", "FA", "NW", "C"];
    // What the pruning rules did over all the cases: each must have fired, or the agreement
    // says nothing about it.
    let mut fired = Stats::default();
    for case in 0..160 {
        let (w, h) = (3 + rng.below(5), 3 + rng.below(5));
        let mut board = Board::new(w, h);
        if case % 4 != 0 {
            for sq in 0..w * h {
                if rng.below(7) == 0 {
                    board.set_hole(sq);
                }
            }
        }
        if board.cell_count() == 0 {
            continue;
        }
        let piece = pieces[rng.below(pieces.len())];
        let independent = rng.below(3) == 0;
        let m = Model::new(
            board,
            Piece::parse(piece).expect("a piece"),
            'X',
            independent,
        );
        let want = exhaustive_minimum(&m);
        for (symmetry, threads) in [(false, 1), (true, 1), (true, 2)] {
            // No incumbent at all: the search finds placements and proves the last.
            let best = minimum_counted(&m, usize::MAX, symmetry, threads, &mut fired);
            m.check(&best).expect("a valid placement");
            assert_eq!(
                best.len(),
                want,
                "case {case}: {piece} {w}x{h} independent={independent} symmetry={symmetry} \
                 threads={threads}"
            );
        }
    }
    for rule in [
        "bound prunes",
        "cost exclusions",
        "forced squares",
        "dominated siblings",
        "symmetric siblings",
        "corner images",
        "excluded replacers",
        "replaceable pieces",
        "replaceable pairs",
        "swap demands",
        "swapped pieces",
        "group demands",
        "swapped groups",
    ] {
        assert!(
            fired.counter(rule).is_some_and(|n| n > 0),
            "{rule} never fired: {:?}",
            fired.counters
        );
    }
}

/// `gives_way` on random partial independent placements of random leapers on random
/// boards with holes: wherever it says the pieces in conflict with e give way to it,
/// every independent cover completing the placement with no other piece in conflict
/// with e (random completions) is beaten by that cover less those pieces plus e, which
/// is valid and smaller.
#[test]
fn pieces_giving_way_leave_a_smaller_cover() {
    let mut rng = crate::util::Rng(0x2545_f491_4f6c_dd1d);
    let pieces = ["N", "K", "W", "F", "WD", "FA", "NW", "C"];
    let mut checked = 0;
    for _ in 0..400 {
        let (w, h) = (4 + rng.below(4), 4 + rng.below(4));
        let mut board = Board::new(w, h);
        for sq in 0..w * h {
            if rng.below(8) == 0 {
                board.set_hole(sq);
            }
        }
        let piece = Piece::parse(pieces[rng.below(pieces.len())]).expect("a piece");
        let m = Model::new(board, piece, 'X', true);
        let free = |set: &[usize], q: usize| {
            !m.board.is_hole(q) && set.iter().all(|&p| !m.conflict.get(p, q))
        };
        let mut placed = Vec::new();
        for _ in 0..2 + rng.below(6) {
            let q = rng.below(w * h);
            if free(&placed, q) {
                placed.push(q);
            }
        }
        let mut s = Search::new(&m, &Task::default());
        s.stack.placed = placed.clone();
        s.replace.pset.fill(0);
        for &p in &placed {
            s.replace.pset[p >> 6] |= 1 << (p & 63);
        }
        s.stack.recount_twice(&m, 0);
        for e in m.cells.clone() {
            if placed.contains(&e) || !s.replace.gives_way(&m, &s.stack, 0, e) {
                continue;
            }
            let group: Vec<usize> = placed
                .iter()
                .copied()
                .filter(|&p| m.conflict.get(p, e))
                .collect();
            for _ in 0..20 {
                // Squares in a random order, each taken when nothing taken conflicts
                // with it and it is not in conflict with e: a maximal completion.
                let mut cover = placed.clone();
                let mut order = m.cells.clone();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                for q in order {
                    if !m.conflict.get(q, e) && free(&cover, q) {
                        cover.push(q);
                    }
                }
                if m.check(&cover).is_err() {
                    continue;
                }
                let twin: Vec<usize> = cover
                    .iter()
                    .copied()
                    .filter(|p| !group.contains(p))
                    .chain([e])
                    .collect();
                m.check(&twin)
                    .expect("the twin covers the board, independent");
                assert!(twin.len() < cover.len(), "the twin is smaller");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} completions checked");
}

/// Knights on n x n plain, where the optima are few (OEIS A103315: 2 at 8x8, 9x9 and
/// 12x12, 4 at 10x10), and independent (A342576), asked for a placement of the optimum's
/// size: a pruning rule that drops placements it should keep is soon caught here.
#[test]
fn search_from_scratch_finds_the_rare_knight_optima() {
    let plain = [(7, 10), (8, 12), (9, 14), (10, 16), (11, 21), (12, 24)];
    let independent = [(7, 13), (8, 14), (9, 14), (10, 16), (11, 22), (12, 24)];
    let cases = plain.map(|(n, v)| (n, false, v)).into_iter();
    for (n, ind, want) in cases.chain(independent.map(|(n, v)| (n, true, v))) {
        let m = knights(n, ind);
        for (symmetry, threads) in [(false, 1), (true, 1), (true, 2)] {
            let best = minimum_from_scratch(&m, want + 1, symmetry, threads);
            m.check(&best).expect("a valid placement");
            assert_eq!(
                best.len(),
                want,
                "n={n} independent={ind} symmetry={symmetry} threads={threads}"
            );
        }
    }
}

/// A placement with fewer than `bar` pieces: without symmetries by the plain search from
/// the root; with them through the corner subtrees as a proof runs them (on two threads
/// split a level further).
fn minimum_from_scratch(m: &Model, bar: usize, symmetry: bool, threads: usize) -> Vec<usize> {
    minimum_counted(m, bar, symmetry, threads, &mut Stats::default())
}

/// `minimum_from_scratch`, its statistics (the rules' counters among them) added to
/// `fired`.
fn minimum_counted(
    m: &Model,
    bar: usize,
    symmetry: bool,
    threads: usize,
    fired: &mut Stats,
) -> Vec<usize> {
    minimum_with(m, bar, symmetry, threads, None, fired)
}

/// `minimum_counted`, its workers looking for hungry ones every `every` nodes when given.
fn minimum_with(
    m: &Model,
    bar: usize,
    symmetry: bool,
    threads: usize,
    every: Option<u32>,
    fired: &mut Stats,
) -> Vec<usize> {
    let task = Task {
        threads,
        ..Task::default()
    };
    let mut s = Search::new(m, &task);
    s.aim = Aim::Minimize(Symmetry::Ignored);
    s.bar = bar;
    if let Some(every) = every {
        s.job.donate_every = every;
    }
    let mut run = Run::new(Limits::default());
    if symmetry {
        s.aim = Aim::Minimize(Symmetry::of(m));
        s.prove(&mut run);
    } else {
        s.start(&mut run);
    }
    s.flush(&mut run);
    fired.merge(&run.stats);
    s.best.take().expect("a placement")
}

/// A search of knights n x n from no incumbent at all, as `--part` or `--estimate` asks.
fn from_scratch(m: &Model, part: Option<(usize, usize)>, estimate: Option<u64>) -> Search<'_> {
    let task = Task {
        goal: crate::engine::Goal::Minimize,
        part,
        estimate,
        ..Task::default()
    };
    let mut s = Search::new(m, &task);
    s.aim = Aim::Minimize(Symmetry::Broken);
    s
}

/// A part split once more (`--part I/N,J/M`): the subparts of every part together find
/// and prove the optimum, all of them on one list and, within a part, one sublist.
#[test]
fn subparts_together_find_and_prove_the_optimum() {
    for (n, independent, want) in [(8, false, 12), (9, true, 14), (10, false, 16)] {
        let m = knights(n, independent);
        let mut sizes = Vec::new();
        let mut lists = Vec::new();
        let mut children = 0;
        for p in 1..=2 {
            let mut sublists = Vec::new();
            let (mut taken, mut of) = (0, 0);
            for q in 1..=3 {
                let mut s = from_scratch(&m, Some((p, 2)), None);
                s.job.subpart = Some((q, 3));
                s.prove(&mut Run::new(Limits::default()));
                let part = s.partial.take().expect("a subpart says what it did");
                assert_eq!(part.part, Some((p, 2)));
                assert!(
                    matches!(part.work, PartialWork::Searched { .. }),
                    "{part:?}"
                );
                let sub = part.subpart.expect("a subpart");
                assert_eq!(sub.index, (q, 3));
                taken += part.taken;
                of = sub.descendants;
                lists.push(part.list.fingerprint);
                sublists.push(sub.fingerprint);
                if let Some(b) = s.best.take() {
                    m.check(&b).expect("a valid placement");
                    sizes.push(b.len());
                }
            }
            assert!(sublists.iter().all(|l| l == &sublists[0]), "{sublists:?}");
            // The subparts share the children out, each exactly once.
            assert_eq!(taken, of, "n={n} part {p}");
            children += of;
        }
        assert!(lists.iter().all(|l| l == &lists[0]), "{lists:?}");
        assert!(children > 2, "n={n}: {children} children in all");
        assert_eq!(
            sizes.iter().min(),
            Some(&want),
            "n={n} independent={independent}"
        );
    }
}

#[test]
fn parts_together_find_and_prove_the_optimum() {
    // OEIS A006075 and A342576, n = 7..9; no incumbent, so the parts must find it.
    let mut all_lists = Vec::new();
    for (independent, table) in [(false, [10, 12, 14]), (true, [13, 14, 14])] {
        for (i, &want) in table.iter().enumerate() {
            let m = knights(7 + i, independent);
            let mut sizes = Vec::new();
            let mut lists = Vec::new();
            for p in 1..=3 {
                let mut s = from_scratch(&m, Some((p, 3)), None);
                s.prove(&mut Run::new(Limits::default()));
                let part = s.partial.take().expect("a part says what it did");
                assert_eq!((part.part, part.subpart), (Some((p, 3)), None));
                assert!(
                    matches!(part.work, PartialWork::Searched { .. }),
                    "{part:?}"
                );
                lists.push(part.list.fingerprint);
                if let Some(b) = s.best.take() {
                    m.check(&b).expect("a valid placement");
                    sizes.push(b.len());
                }
            }
            assert_eq!(
                sizes.iter().min(),
                Some(&want),
                "independent={independent} n={}",
                7 + i
            );
            // All parts search one list; another board's list is another.
            assert!(lists.iter().all(|l| l == &lists[0]), "{lists:?}");
            all_lists.push(lists[0]);
        }
    }
    all_lists.sort();
    all_lists.dedup();
    assert_eq!(all_lists.len(), 6, "{all_lists:?}");
}

#[test]
fn knuth_estimate_is_near_the_nodes_the_search_takes() {
    for (n, independent) in [(12, false), (13, true), (14, false)] {
        let m = knights(n, independent);
        let want = minimum(&m, true, 1).len();
        // The tree below the subtrees that proves nothing smaller than the optimum, as
        // the proofs in parts search it (a bar the search could lower would make the
        // searched tree smaller than the probed one); the probes on one worker and
        // shared between two.
        let threads = 1 + n % 2;
        let mut s = from_scratch(&m, None, Some(4000));
        s.bar = want;
        s.job.threads = threads;
        let mut run = Run::new(Limits::default());
        s.prove(&mut run);
        let est = estimated(s.partial.take().expect("an estimate"));
        assert_eq!(est.threads, threads);
        let mut exact = from_scratch(&m, Some((1, 1)), None);
        exact.bar = want;
        let mut run2 = Run::new(Limits::default());
        exact.prove(&mut run2);
        let nodes = run2.stats.nodes as f64;
        let est = est.nodes;
        assert!(
            est > nodes / 2.0 && est < nodes * 2.0,
            "n={n}: estimated {est}, searched {nodes}"
        );
        // Each part estimated alone (`--estimate` with `--part`): together the tree.
        let mut sum = 0.0;
        for p in 1..=3 {
            let mut s = from_scratch(&m, Some((p, 3)), Some(4000));
            s.bar = want;
            s.prove(&mut Run::new(Limits::default()));
            let part = s.partial.take().expect("an estimate");
            assert_eq!(part.part, Some((p, 3)));
            sum += estimated(part).nodes;
        }
        assert!(
            sum > nodes / 2.0 && sum < nodes * 2.0,
            "n={n}: the parts' estimates add up to {sum}, searched {nodes}"
        );
    }
}

/// The estimate a run made; a finished estimate always has one.
fn estimated(p: Partial) -> TreeEstimate {
    match p.work {
        PartialWork::Estimated(Some(e)) => e,
        other => panic!("not an estimate: {other:?}"),
    }
}

/// The minimum with symmetry broken (as `search_minimum`), on `threads` workers that look
/// for hungry ones every `every` nodes, and the run's statistics.
fn minimum_donating(m: &Model, threads: usize, every: u32) -> (Vec<usize>, Stats) {
    let task = Task {
        goal: crate::engine::Goal::Minimize,
        threads,
        ..Task::default()
    };
    let mut s = Search::new(m, &task);
    s.job.donate_every = every;
    let mut run = Run::new(Limits::default());
    s.search_minimum(&mut run);
    s.flush(&mut run);
    (s.best.take().expect("a placement"), run.stats)
}

/// Donation keeps the optimum: knights 10..14 plain and independent, kings, and a board
/// with holes, on 1, 2 and 4 threads, the workers looking for hungry ones every 16 nodes
/// (so that they donate often: the list runs dry at the end of every run), from the
/// heuristic's incumbent and from none.
#[test]
fn donation_keeps_the_optimum() {
    let mut models = Vec::new();
    for n in 10..=14 {
        for independent in [false, true] {
            models.push(knights(n, independent));
        }
    }
    for independent in [false, true] {
        models.push(Model::new(
            Board::new(9, 9),
            Piece::parse("K").unwrap(),
            'K',
            independent,
        ));
        let mut holed = Board::new(12, 11);
        for sq in [13, 40, 41, 77, 100] {
            holed.set_hole(sq);
        }
        models.push(Model::new(
            holed,
            Piece::parse("N").unwrap(),
            'N',
            independent,
        ));
    }
    let mut fired = Stats::default();
    for m in &models {
        let name = format!(
            "{}x{} independent={}",
            m.board.width, m.board.height, m.independent
        );
        let (want, _) = minimum_donating(m, 1, 16);
        m.check(&want).expect("a valid placement");
        for threads in [2, 4] {
            let (got, stats) = minimum_donating(m, threads, 16);
            m.check(&got).expect("a valid placement");
            assert_eq!(got.len(), want.len(), "{name} threads={threads}");
            fired.merge(&stats);
        }
        if m.board.width <= 12 {
            // No incumbent: the workers find placements in donated pieces too.
            for threads in [2, 4] {
                let got = minimum_with(m, usize::MAX, true, threads, Some(16), &mut fired);
                m.check(&got).expect("a valid placement");
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{name} from scratch, threads={threads}"
                );
            }
        }
    }
    assert!(
        fired.counter("donated subtrees").unwrap_or(0) > 0,
        "no donation: {:?}",
        fired.counters
    );
}

/// The heaviest corner subtree of knights 14x14 independent alone on `threads` workers,
/// one piece above the optimum: the best size found and the run's statistics.
fn heavy_subtree(m: &Model, threads: usize) -> (Option<usize>, Stats) {
    let task = Task {
        goal: crate::engine::Goal::Minimize,
        threads,
        ..Task::default()
    };
    let mut s = Search::new(m, &task);
    s.aim = Aim::Minimize(Symmetry::Broken);
    // One piece above the optimum (33): the subtree holds placements to find.
    s.bar = 34;
    let mut run = Run::new(Limits::default());
    s.reach = Reach::RootBound;
    s.start(&mut run);
    s.reach = Reach::Whole;
    let corners = s.corner_subtrees().expect("corner subtrees");
    // The corner subtree with the most nodes on one worker.
    let t = corners.into_iter().next().expect("a corner subtree");
    s.pool(vec![t], &mut run);
    s.flush(&mut run);
    let best = s.best.take().map(|b| b.len());
    (best, run.stats)
}

/// One heavy subtree on 4 workers: 3 of them go hungry at once, so the busy one must donate
/// (the counter fires), the donated pieces are searched (the same nodes give or take what
/// a resumed node's bound starts from), and what is found is what one worker finds.
#[test]
fn a_heavy_subtree_is_donated_and_searched_once() {
    let m = knights(14, true);
    let (one, one_stats) = heavy_subtree(&m, 1);
    assert_eq!(one_stats.counter("donated subtrees"), None);
    let (four, four_stats) = heavy_subtree(&m, 4);
    assert_eq!(four, one);
    let donated = four_stats.counter("donated subtrees").unwrap_or(0);
    assert!(donated > 0, "no donation: {:?}", four_stats.counters);
    let (a, b) = (one_stats.nodes as f64, four_stats.nodes as f64);
    assert!(
        a > 1024.0 && b > 0.8 * a && b < 1.25 * a,
        "one worker {a} nodes, four {b}"
    );
}

/// `bnb.donate = 0`: the same heavy subtree on 4 workers, none of which donates; they find
/// what one worker finds.
#[test]
fn no_donation_when_the_option_turns_it_off() {
    let mut m = knights(14, true);
    m.tuning.bnb.donate = 0;
    let (one, _) = heavy_subtree(&m, 1);
    let (four, stats) = heavy_subtree(&m, 4);
    assert_eq!(four, one);
    assert_eq!(stats.counter("donations"), None, "{:?}", stats.counters);
    assert_eq!(stats.counter("donated subtrees"), None);
}
