"""The Python package against published values, with every solution it returns checked here
by code that shares nothing with the solver."""

from __future__ import annotations

import itertools
import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import boardsolve

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"


# --- independent validators ------------------------------------------------------------


def queens_ok(squares, n):
    if len(squares) != n:
        return False
    for (r1, c1), (r2, c2) in itertools.combinations(squares, 2):
        if r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2):
            return False
    return True


def knights_dominate(squares, w, h):
    """Every square holds a knight or is attacked by one (and no knight attacks another,
    the rules of puzzles/knights8.toml)."""
    occupied = set(squares)
    jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    attacked = {(r + dr, c + dc) for r, c in squares for dr, dc in jumps}
    every = all((r, c) in occupied or (r, c) in attacked for r in range(h) for c in range(w))
    return every and not (occupied & attacked)


def sudoku_ok(rows, givens):
    n = len(rows)
    full = set("123456789"[:n])
    if any(set(r) != full for r in rows):
        return False
    if any({rows[r][c] for r in range(n)} != full for c in range(n)):
        return False
    for br in range(0, n, 3):
        for bc in range(0, n, 3):
            if {rows[r][c] for r in range(br, br + 3) for c in range(bc, bc + 3)} != full:
                return False
    return all(g in ".0" or g == rows[i // n][i % n] for i, g in enumerate(givens))


def exact_cover_ok(items, options, chosen, secondary=()):
    """Every primary item exactly once; a secondary item at most once or in one colour."""
    seen = {}
    colours = {}
    for k in chosen:
        for tok in options[k]:
            name, _, colour = str(tok).partition(":")
            if colour:
                if colours.setdefault(name, colour) != colour:
                    return False
            else:
                seen[name] = seen.get(name, 0) + 1
    if any(seen.get(str(i), 0) != 1 for i in items):
        return False
    return all(seen.get(str(s), 0) <= 1 and not (s in seen and s in colours) for s in secondary)


def tour_ok(squares, w, h):
    if len(squares) != w * h or len(set(map(tuple, squares))) != w * h:
        return False
    for (r1, c1), (r2, c2) in zip(squares, squares[1:]):
        if sorted((abs(r1 - r2), abs(c1 - c2))) != [1, 2]:
            return False
    return True


# --- problems as lists --------------------------------------------------------------


def queens_cover(n):
    items = [f"R{i}" for i in range(n)] + [f"C{j}" for j in range(n)]
    secondary = [f"A{d}" for d in range(2 * n - 1)] + [f"B{d}" for d in range(2 * n - 1)]
    options = [
        [f"R{i}", f"C{j}", f"A{i + j}", f"B{i - j + n - 1}"] for i in range(n) for j in range(n)
    ]
    return items, options, secondary


def dominoes(n):
    items = [f"r{r}c{c}" for r in range(n) for c in range(n)]
    options = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                options.append([f"r{r}c{c}", f"r{r}c{c + 1}"])
            if r + 1 < n:
                options.append([f"r{r}c{c}", f"r{r + 1}c{c}"])
    return items, options


# Knuth's example of TAOCP 7.2.2.1 (6): its one solution is options 1, 4 and 5 (from 1).
KNUTH_ITEMS = list("abcdefg")
KNUTH_OPTIONS = [["c", "e"], ["a", "d", "g"], ["b", "c", "f"], ["a", "d", "f"], ["b", "g"],
                 ["d", "e", "g"]]


# --- every kind, through solve() ------------------------------------------------------


def test_independent_queens_count_and_solutions():
    r = boardsolve.solve(PUZZLES / "queens8.toml", goal="count")
    assert r.count == 92 and r.proven and r.status == "solved" and r.kind == "independent"
    every = boardsolve.solve(str(PUZZLES / "queens8.toml"), goal="all", limit=100)
    assert every.count == 92 and len(every.solutions) == 92
    assert all(queens_ok(s, 8) for s in every.solutions)
    assert len({tuple(s) for s in every.solutions}) == 92
    assert isinstance(every.solutions[0][0], tuple)


def test_independent_sizes_and_overrides_match_oeis():
    # A000170 and, with unique, A002562.
    for n, total, classes in [(6, 4, 1), (9, 352, 46), (10, 724, 92)]:
        assert boardsolve.solve(PUZZLES / "queens8.toml", goal="count", size=n).count == total
        u = boardsolve.solve(PUZZLES / "queens8.toml", goal="count", size=n, unique=True)
        assert u.count == classes
    # A key of the file, `__` for '.', and the same as a dict of dotted keys.
    text = (PUZZLES / "queens8.toml").read_text()
    assert "[board]" in text
    assert boardsolve.solve(text, goal="count", board__size=5).count == 10
    assert boardsolve.solve(text, goal="count", set={"board.size": 7}).count == 40


def test_domination_knights_optimum_is_proven():
    r = boardsolve.solve(PUZZLES / "knights8.toml")
    assert r.kind == "domination" and r.optimum == 14 and r.proven
    assert knights_dominate(r.solution, 8, 8) and len(r.solution) == 14


def test_tour_count_and_a_tour():
    assert boardsolve.solve(PUZZLES / "tour5x5.toml").count == 1728
    first = boardsolve.solve(PUZZLES / "tour5x5.toml", goal="first")
    assert first.kind == "tour"
    assert first.svg() and "<svg" in first.svg()


def test_lines_less_than_three():
    r = boardsolve.solve(PUZZLES / "lessthanthree.toml", goal="count")
    assert r.kind == "lines" and r.count == 42


def test_cover_and_tiling_kinds():
    r = boardsolve.solve(PUZZLES / "langford11.toml")
    assert r.kind == "cover" and r.count == 17792
    t = boardsolve.solve(PUZZLES / "pentominoes6x10.toml", goal="first")
    assert t.kind == "tiling" and t.solutions
    # Knuth's format, by the file's extension.
    k = boardsolve.solve(PUZZLES / "knuth7.dlx", goal="count")
    assert k.kind == "cover" and k.count >= 1


def test_sudoku_grid_and_givens():
    text = (PUZZLES / "sudoku9.toml").read_text()
    r = boardsolve.solve(PUZZLES / "sudoku9.toml")
    assert r.kind == "sudoku"
    rows = r.solution
    assert len(rows) == 9 and all(len(row) == 9 for row in rows)
    givens = "".join(
        ch for line in text.split('givens = """')[1].split('"""')[0].splitlines()
        for ch in line if ch in "0123456789."
    )
    assert sudoku_ok(rows, givens)
    assert boardsolve.solve(PUZZLES / "sudoku9.toml", goal="count", limit=2).count == 1


def test_result_json_text_and_svg():
    r = boardsolve.solve(PUZZLES / "queens8.toml", goal="first")
    data = json.loads(r.to_json())
    assert data["kind"] == "independent" and data["solutions"][0] == [list(s) for s in r.solution]
    assert r.to_dict()["status"] == "solved"
    assert "Q" in str(r)
    svg = r._repr_svg_()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "boardsolve.Result" in repr(r)
    # A count keeps no solution to draw.
    assert boardsolve.solve(PUZZLES / "queens8.toml", goal="count").svg() is None


def test_strategies_and_compare_agree():
    rows = boardsolve.strategies(PUZZLES / "queens8.toml", goal="count")
    names = {r["name"] for r in rows}
    assert {"bitmask", "dlx", "backtrack"} <= names
    assert sum(r["auto"] for r in rows) == 1
    construct = next(r for r in rows if r["name"] == "construct")
    assert not construct["applies"] and construct["reason"]
    table = boardsolve.compare(PUZZLES / "queens8.toml", ["bitmask", "dlx", "backtrack"],
                               goal="count", size=9)
    assert [r["strategy"] for r in table] == ["bitmask", "dlx", "backtrack"]
    assert all(r["count"] == 352 and r["proven"] for r in table) and table.agree
    assert "bitmask" in str(table)


# --- exact cover from lists -----------------------------------------------------------


def test_exact_cover_knuths_example():
    sols = list(boardsolve.exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS))
    assert sols == [[0, 3, 4]] or sorted(map(sorted, sols)) == [[0, 3, 4]]
    assert boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS) == 1


def test_exact_cover_queens_every_solution_checked():
    items, options, secondary = queens_cover(8)
    sols = list(boardsolve.exact_cover(items, options, secondary))
    assert len(sols) == 92 and len({tuple(sorted(s)) for s in sols}) == 92
    for s in sols:
        assert exact_cover_ok(items, options, s, secondary)
        assert queens_ok([divmod(k, 8) for k in s], 8)
    assert boardsolve.count_exact_cover(items, options, secondary) == 92
    assert boardsolve.count_exact_cover(*queens_cover(10), threads=1) == 724


def test_exact_cover_colours_and_multiplicity():
    # Two options may share secondary item x when they give it the same colour.
    items = ["a", "b"]
    options = [["a", "x:red"], ["b", "x:red"], ["b", "x:blue"]]
    sols = list(boardsolve.exact_cover(items, options, secondary=["x"]))
    assert sols == [[0, 1]]
    # Item a covered exactly twice, b once: options {0, 1, 2} in pairs containing a twice.
    m_items = ["a", "b"]
    m_options = [["a"], ["a", "b"], ["a"], ["b"]]
    m = list(boardsolve.exact_cover(m_items, m_options, multiplicity={"a": 2}))
    brute = [
        list(c) for k in range(len(m_options) + 1) for c in itertools.combinations(range(4), k)
        if sum("a" in m_options[i] for i in c) == 2 and sum("b" in m_options[i] for i in c) == 1
    ]
    assert sorted(map(sorted, m)) == sorted(brute)
    assert boardsolve.count_exact_cover(m_items, m_options, multiplicity={"a": (1, 2)}) == len([
        c for k in range(5) for c in itertools.combinations(range(4), k)
        if 1 <= sum("a" in m_options[i] for i in c) <= 2 and sum("b" in m_options[i] for i in c) == 1
    ])
    # Items given as ints.
    assert boardsolve.count_exact_cover([1, 2], [[1], [2], [1, 2]]) == 2


def test_exact_cover_is_lazy_and_stops():
    items, options, secondary = queens_cover(60)
    start = time.perf_counter()
    it = boardsolve.exact_cover(items, options, secondary)
    first = next(it)
    assert queens_ok([divmod(k, 60) for k in first], 60)
    second = next(it)
    assert second != first
    it.close()
    assert list(it) == []
    assert time.perf_counter() - start < 30


def test_big_counts_are_python_ints():
    # A004003: domino tilings of the 14x14 board, beyond 2^64.
    items, options = dominoes(14)
    count = boardsolve.count_exact_cover(items, options, strategy="dxz")
    assert count == 112202208776036178000000 and isinstance(count, int)
    assert boardsolve.count_exact_cover(*dominoes(8)) == 12988816


# --- errors ---------------------------------------------------------------------------


def test_puzzle_error_says_where():
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.solve('kind = "independent"\n[board]\nsize = 0\n')
    err = e.value
    assert err.file == "<string>" and err.line == 3 and err.column > 0
    assert err.key == "board.size" and "accepted" in str(err)
    assert isinstance(err, ValueError) and isinstance(err, boardsolve.BoardsolveError)
    with pytest.raises(boardsolve.PuzzleError):
        boardsolve.solve(PUZZLES / "queens8.toml", goal="sideways")
    with pytest.raises(FileNotFoundError):
        boardsolve.solve("no/such/file.toml")
    with pytest.raises(TypeError):
        boardsolve.solve(PUZZLES / "queens8.toml", board__size=object())


def test_list_errors_name_the_index():
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.count_exact_cover(["a"], [["a"], ["b"]])
    assert e.value.key == "options[1][0]" and "not a declared item" in str(e.value)
    with pytest.raises(boardsolve.PuzzleError) as e:
        list(boardsolve.exact_cover(["a", "a"], [["a"]]))
    assert e.value.key == "items[1]"
    with pytest.raises(boardsolve.PuzzleError):
        boardsolve.count_exact_cover(["a"], [["a:red"]])
    # One colour an item: "x:r:g" is refused, not read as colour "r:g".
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.count_exact_cover(["a"], [["a", "x:r:g"]], secondary=["x"])
    assert e.value.key == "options[0][1]" and "an item takes one colour" in str(e.value)
    with pytest.raises(TypeError):
        boardsolve.count_exact_cover(["a"], [[1.5]])
    with pytest.raises(boardsolve.PuzzleError):
        boardsolve.count_exact_cover(["a"], [["a"]], multiplicity={"a": (3, 1)})


def test_strategy_error():
    with pytest.raises(boardsolve.StrategyError) as e:
        boardsolve.solve(PUZZLES / "queens8.toml", goal="count", strategy="construct")
    assert "construct" in str(e.value)
    with pytest.raises(boardsolve.StrategyError):
        boardsolve.solve(PUZZLES / "queens8.toml", strategy="nonesuch")


def test_no_strategy_for_the_puzzle_is_a_strategy_error():
    # No strategy named anywhere, and none takes a 65x65 board's queens.
    with pytest.raises(boardsolve.StrategyError):
        boardsolve.solve(PUZZLES / "queens8.toml", size=65)


def test_a_count_stops_at_its_limit_as_the_command_line_does():
    r = boardsolve.solve(PUZZLES / "sudoku4.toml", size=4, goal="count", limit=2)
    assert r.count == 2 and r.stopped == "solution limit"
    assert r.to_dict()["complete"] is False
    whole = boardsolve.solve(PUZZLES / "sudoku4.toml", size=4, goal="count")
    assert whole.count == 288 and whole.to_dict()["complete"] is True
    with pytest.raises(boardsolve.PuzzleError):
        boardsolve.solve(PUZZLES / "sudoku4.toml", size=4, goal="count", limit=0)


def test_a_file_that_is_not_utf8_is_a_puzzle_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'kind = "independent"\ntitle = "\xe9"\n')
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.solve(bad)
    assert (e.value.line, e.value.column) == (2, 10) and "0xE9" in str(e.value)


def test_limit_reached_carries_the_answer_so_far():
    with pytest.raises(boardsolve.LimitReached) as e:
        boardsolve.solve(PUZZLES / "queens8.toml", goal="count", size=28, time_limit=0.3,
                         threads=1)
    r = e.value.result
    assert r is not None and not r.proven and r.status == "limit"
    assert r.count is None or r.count >= 0
    with pytest.raises(boardsolve.LimitReached) as e:
        boardsolve.solve(PUZZLES / "queens8.toml", goal="count", size=28, node_limit=1000)
    assert not e.value.result.proven
    with pytest.raises(boardsolve.LimitReached):
        boardsolve.count_exact_cover(*queens_cover(30), time_limit=0.2)


# --- interruption ---------------------------------------------------------------------


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("call", [
    lambda: boardsolve.solve(PUZZLES / "queens8.toml", goal="count", size=30),
    lambda: boardsolve.count_exact_cover(*queens_cover(30)),
    lambda: list(boardsolve.exact_cover(*queens_cover(30))),
])
def test_ctrl_c_stops_a_long_search(call):
    timer = interrupt_after(0.3)
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 2.0


def test_other_threads_run_during_a_search():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    try:
        with pytest.raises(boardsolve.LimitReached):
            boardsolve.solve(PUZZLES / "queens8.toml", goal="count", size=30, time_limit=0.5)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 10


# --- python -m boardsolve -------------------------------------------------------------


def test_module_runs_the_command_line():
    run = subprocess.run(
        [sys.executable, "-m", "boardsolve", str(PUZZLES / "queens8.toml"), "--goal", "count",
         "--format", "json"],
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["count"] == 92
    bad = subprocess.run([sys.executable, "-m", "boardsolve", "--goal"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2
    none = subprocess.run(
        [sys.executable, "-m", "boardsolve", str(PUZZLES / "queens8.toml"), "--size", "3"],
        capture_output=True, text=True, timeout=60,
    )
    assert none.returncode == 1


def test_module_plans_commands_that_run_the_module(tmp_path):
    results = tmp_path / "the results"
    run = subprocess.run(
        [sys.executable, "-m", "boardsolve", "plan", str(PUZZLES / "queens8.toml"), "--parts",
         "2", "--results", str(results)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    commands = run.stdout.splitlines()
    assert len(commands) == 2, run.stdout
    for line in commands:
        part = subprocess.run(["sh", "-c", line], capture_output=True, text=True, timeout=60)
        assert part.returncode == 0, (line, part.stderr)
    merged = subprocess.run(
        [sys.executable, "-m", "boardsolve", "merge", str(results)],
        capture_output=True, text=True, timeout=60,
    )
    assert merged.returncode == 0, merged.stderr
    assert "92 solutions" in merged.stdout


def test_mixed_army_solutions_name_their_pieces():
    r = boardsolve.solve(PUZZLES / "mixed-army.toml", goal="first")
    placed = r.solution
    assert sorted(p["piece"] for p in placed) == ["N", "N", "Q", "Q", "R", "R"]
    squares = [p["square"] for p in placed]
    assert all(isinstance(s, tuple) for s in squares) and len(set(squares)) == 6


def test_arguments_that_would_be_misread_are_refused(tmp_path):
    # A str where a list is expected would be read as its characters.
    with pytest.raises(TypeError):
        boardsolve.count_exact_cover(["a", "b"], ["a", "b"])
    with pytest.raises(TypeError):
        boardsolve.count_exact_cover("ab", [["a"], ["b"]])
    with pytest.raises(TypeError):
        boardsolve.compare(PUZZLES / "queens8.toml", "bitmask,dlx")
    with pytest.raises(TypeError) as e:
        boardsolve.solve(PUZZLES / "queens8.toml", timelimit=1)
    assert "time_limit" in str(e.value)
    with pytest.raises(TypeError):
        boardsolve.solve(PUZZLES / "queens8.toml", set="rules.count=5")
    for bad in [dict(limit=-1), dict(threads=0), dict(node_limit=0)]:
        with pytest.raises(boardsolve.PuzzleError):
            boardsolve.solve(PUZZLES / "queens8.toml", **bad)
    with pytest.raises(TypeError):
        boardsolve.solve(PUZZLES / "queens8.toml", limit=1.5)
    with pytest.raises(boardsolve.PuzzleError):
        boardsolve.count_exact_cover(["a"], [["a"]], threads=0)
    # A bad range is blamed on the multiplicity; a list is a pair too.
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.count_exact_cover(["a"], [["a"]], multiplicity={"a": 0})
    assert e.value.key == 'multiplicity["a"]'
    assert boardsolve.count_exact_cover(["a"], [["a"], ["a"]], multiplicity={"a": [1, 2]}) == 3
    # A path with '=' in its name is a path when the file exists.
    odd = tmp_path / "q=8.toml"
    odd.write_text((PUZZLES / "queens8.toml").read_text())
    assert boardsolve.solve(str(odd), goal="count").count == 92


def test_a_strategy_named_in_the_file_is_refused_at_its_line():
    text = (PUZZLES / "queens8.toml").read_text() + '\n[solve]\nstrategy = "bitmsk"\n'
    if text.count("[solve]") > 1:
        text = (PUZZLES / "queens8.toml").read_text().replace("[solve]", '[solve]\nstrategy = "bitmsk"', 1)
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.solve(text)
    assert e.value.key == "solve.strategy" and e.value.line > 0


def test_compare_table_marks_what_did_not_finish():
    table = boardsolve.compare(PUZZLES / "queens8.toml", ["backtrack"], goal="count", size=16,
                               budget=0.2)
    assert not table[0]["proven"] and "- (budget)" in str(table)
    assert table.agree is None
    knights = boardsolve.compare(PUZZLES / "knights8.toml", ["bnb"], goal="count")
    assert "optimum 14, " in str(knights)


def test_tiling_cells_are_tuples_and_drawings_are_capped():
    t = boardsolve.solve(PUZZLES / "pentominoes6x10.toml", goal="first")
    assert all(isinstance(c, tuple) for p in t.solution for c in p["cells"])
    every = boardsolve.solve(PUZZLES / "queens8.toml", goal="all", limit=92)
    assert every._repr_svg_().count("<svg") <= every.svg().count("<svg")
    assert len(every._repr_svg_()) < len(every.svg())


def test_one_iterator_from_two_threads_is_refused_not_deadlocked():
    items, options, secondary = queens_cover(12)
    it = boardsolve.exact_cover(items, options, secondary)
    seen = []
    errors = []

    def take():
        try:
            for s in it:
                seen.append(s)
        except RuntimeError as e:
            errors.append(e)

    threads = [threading.Thread(target=take) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    it.close()
    for t in threads:
        t.join(timeout=20)
    assert not any(t.is_alive() for t in threads)
    assert all(exact_cover_ok(items, options, s, secondary) for s in seen)
    assert list(it) == []


def test_iteration_after_ctrl_c_does_not_pass_for_complete():
    items, options, secondary = queens_cover(14)
    it = boardsolve.exact_cover(items, options, secondary)
    timer = interrupt_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            list(it)
    finally:
        timer.cancel()
    with pytest.raises(RuntimeError):
        next(it)


def test_arguments_beyond_their_ranges_are_refused():
    # (An endless option or item list is refused at the cap of 50 million names, after
    # reading them: some 30 s, too long to run here.)
    with pytest.raises(boardsolve.PuzzleError):
        boardsolve.count_exact_cover(["a"], [["a"]], threads=10**11)
    with pytest.raises(TypeError):
        boardsolve.solve(PUZZLES / "queens8.toml", size=True)


def test_prefix_counts_from_the_file_are_kept():
    r = boardsolve.solve(PUZZLES / "prefixes7.toml", height=3, width=12)
    rows = r.to_dict().get("prefixes")
    assert rows and all("count" in row for row in rows)


# --- argument types and ranges ----------------------------------------------------------


Q8 = PUZZLES / "queens8.toml"


@pytest.mark.parametrize("name, call", [
    ("threads", lambda: boardsolve.solve(Q8, threads="x")),
    ("goal", lambda: boardsolve.solve(Q8, goal=3)),
    ("strategy", lambda: boardsolve.solve(Q8, strategy=3)),
    ("unique", lambda: boardsolve.solve(Q8, unique=1)),
    ("time_limit", lambda: boardsolve.solve(Q8, time_limit="1")),
    ("time_limit", lambda: boardsolve.solve(Q8, time_limit=True)),
    ("limit", lambda: boardsolve.solve(Q8, limit=1.5)),
    ("size", lambda: boardsolve.solve(Q8, size=True)),
    ("input", lambda: boardsolve.solve(Q8, input=3)),
    ("memory", lambda: boardsolve.solve(Q8, memory=1.5)),
    ("memory", lambda: boardsolve.solve(Q8, memory=b"8G")),
    ("set", lambda: boardsolve.solve(Q8, set={1: 2})),
    ("goal", lambda: boardsolve.strategies(Q8, goal=3)),
    ("budget", lambda: boardsolve.compare(Q8, budget="1")),
    ("strategies[0]", lambda: boardsolve.compare(Q8, [3])),
    ("options[0]", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, [5])),
    # Bytes would be read as their byte values, 99 and 101.
    ("options[0]", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, [b"ce"])),
    ("options[0]", lambda: boardsolve.exact_cover(KNUTH_ITEMS, [bytearray(b"ce")])),
    ("items", lambda: boardsolve.count_exact_cover(5, KNUTH_OPTIONS)),
    ("items[0]", lambda: boardsolve.count_exact_cover([True], [[True]])),
    ("secondary", lambda: boardsolve.exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS, b"x")),
    ("multiplicity", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS,
                                                          multiplicity=5)),
    ('multiplicity["a"]', lambda: boardsolve.count_exact_cover(["a"], [["a"]],
                                                               multiplicity={"a": "2"})),
    ("threads", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS, threads="2")),
    ("strategy", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS, strategy=3)),
    ("time_limit", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS,
                                                        time_limit="1")),
    ("most", lambda: boardsolve.solve(Q8, goal="first").svg(most="1")),
])
def test_arguments_of_the_wrong_type_are_type_errors(name, call):
    with pytest.raises(TypeError) as e:
        call()
    assert not isinstance(e.value, boardsolve.BoardsolveError)
    message = str(e.value)
    assert message.startswith(name) and "accepted" in message, message


@pytest.mark.parametrize("name, call", [
    ("time_limit", lambda: boardsolve.solve(Q8, time_limit=10**400)),
    ("time_limit", lambda: boardsolve.solve(Q8, time_limit=-1)),
    ("time_limit", lambda: boardsolve.solve(Q8, time_limit=float("nan"))),
    ("time_limit", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS,
                                                        time_limit=10**400)),
    ("budget", lambda: boardsolve.compare(Q8, ["dlx"], budget=10**400)),
    ("threads", lambda: boardsolve.solve(Q8, threads=0)),
    ("memory", lambda: boardsolve.solve(Q8, memory=1000)),
    ("memory", lambda: boardsolve.solve(Q8, memory="8X")),
    ("memory", lambda: boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS, memory="1K")),
    ("most", lambda: boardsolve.solve(Q8, goal="first").svg(most=-1)),
    ("strategies", lambda: boardsolve.compare(Q8, [])),
])
def test_arguments_out_of_range_are_value_errors(name, call):
    with pytest.raises(ValueError) as e:
        call()
    message = str(e.value)
    assert message.startswith(name) and "accepted" in message, message


def test_arguments_of_other_int_and_float_types_are_taken():
    class Seconds(float):
        pass

    assert boardsolve.solve(Q8, goal="count", threads=True + 1,
                            time_limit=Seconds(30)).count == 92
    assert boardsolve.solve(Q8, goal="first").svg(most=0) is None


# --- the memory budget -----------------------------------------------------------------


def wide_cover(options=400_000, items=2000):
    """An exact cover whose Dancing Links arrays take some 60 MB, a copy a thread."""
    names = [f"i{k}" for k in range(items)]
    rows = [[f"i{k % items}", f"i{(k * 7 + 1) % items}"] for k in range(options)]
    return names, [r for r in rows if r[0] != r[1]]


def test_a_search_beyond_the_memory_budget_is_refused_before_it_starts(tmp_path):
    items, options = wide_cover()
    with pytest.raises(boardsolve.StrategyError) as e:
        boardsolve.count_exact_cover(items, options, threads=64, memory="64M")
    assert "memory budget" in str(e.value) and "64 threads" in str(e.value)
    with pytest.raises(boardsolve.StrategyError) as e:
        boardsolve.exact_cover(items, options, memory=16 << 20)
    assert "memory budget" in str(e.value)
    # The same cover as a file in Knuth's format, through solve, strategies and compare.
    f = tmp_path / "wide.dlx"
    f.write_text(" ".join(items) + "\n" + "\n".join(" ".join(o) for o in options) + "\n")
    with pytest.raises(boardsolve.StrategyError) as e:
        boardsolve.solve(f, goal="count", threads=64, memory="64M")
    assert "64 threads" in str(e.value)
    # Read within 32 MiB (some 24 MiB), searched in no less than the arrays' 60 MB.
    rows = boardsolve.strategies(f, goal="count", memory="32M")
    dlx = next(r for r in rows if r["name"] == "dlx")
    assert not dlx["applies"] and "memory budget" in dlx["reason"]
    with pytest.raises(boardsolve.StrategyError):
        boardsolve.compare(f, ["dlx"], goal="count", memory="32M")
    assert boardsolve.solve(f, goal="first", threads=1).status in ("solved", "no-solution")
    # Within the budget, the count runs.
    assert boardsolve.count_exact_cover(["a", "b"], [["a"], ["b"], ["a", "b"]],
                                        memory="64M") == 2


def test_more_memory_than_the_system_gives_is_capped_with_a_warning():
    with pytest.warns(UserWarning, match="more than this process can use"):
        assert boardsolve.count_exact_cover(KNUTH_ITEMS, KNUTH_OPTIONS, memory=2**70) == 1


def run_python(code, timeout=120):
    """`code` run by another Python, which imports this file's helpers."""
    head = "import sys\nsys.path.insert(0, sys.argv[1])\n"
    return subprocess.run([sys.executable, "-c", head + code, str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


# The default budget is read from /proc and /sys: Linux alone has one.
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the default budget is Linux's")


@linux_only
def test_the_default_budget_refuses_what_would_abort_the_process():
    # 3 GiB of address space: the default budget is 3/4 of it, and 64 copies of the arrays
    # (some 3.9 GiB) are refused before any is made, as `solve` refuses them.
    run = run_python(
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "import boardsolve\n"
        "from test_boardsolve import wide_cover\n"
        "try:\n"
        "    boardsolve.count_exact_cover(*wide_cover(), threads=64, time_limit=30)\n"
        "except boardsolve.StrategyError as e:\n"
        "    print('refused:', e)\n"
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "refused:" in run.stdout and "memory budget" in run.stdout


# --- reading a puzzle file ----------------------------------------------------------------


def test_reading_a_file_is_bounded_by_the_memory_budget():
    start = time.perf_counter()
    with pytest.raises(boardsolve.PuzzleError) as e:
        boardsolve.solve("/dev/zero", memory="16M")
    assert "memory budget" in str(e.value) and e.value.file == "/dev/zero"
    assert time.perf_counter() - start < 20


@linux_only
def test_reading_a_file_is_bounded_by_the_default_budget():
    # The default budget, under a 1 GiB address space: refused, not read without end.
    run = run_python(
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "import boardsolve\n"
        "try:\n"
        "    boardsolve.solve('/dev/zero')\n"
        "except boardsolve.PuzzleError as e:\n"
        "    print('refused:', e)\n",
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "refused: /dev/zero" in run.stdout


def test_a_file_that_cannot_be_opened_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        boardsolve.solve(tmp_path / "none.toml")
    assert e.value.filename == str(tmp_path / "none.toml")
    with pytest.raises(IsADirectoryError):
        boardsolve.solve(tmp_path)


# --- pickling -----------------------------------------------------------------------------


FIELDS = ("kind", "strategy", "goal", "title", "status", "count", "optimum", "proven",
          "reason", "stopped", "stats", "solutions")


@pytest.mark.parametrize("make", [
    lambda: boardsolve.solve(Q8, goal="all", limit=5),
    lambda: boardsolve.solve(PUZZLES / "knights8.toml"),
    lambda: boardsolve.solve(PUZZLES / "pentominoes6x10.toml", goal="first"),
    lambda: boardsolve.solve(PUZZLES / "tour5x5.toml", goal="first"),
    lambda: boardsolve.solve(PUZZLES / "sudoku9.toml"),
    lambda: boardsolve.solve(PUZZLES / "langford11.toml", goal="first"),
    lambda: boardsolve.solve(Q8, goal="count"),
])
def test_results_pickle_whole(make):
    r = make()
    back = pickle.loads(pickle.dumps(r))
    assert type(back) is boardsolve.Result
    assert all(getattr(back, f) == getattr(r, f) for f in FIELDS)
    assert back.to_json() == r.to_json() and back.to_dict() == r.to_dict()
    assert str(back) == str(r) and repr(back) == repr(r)
    assert back.svg() == r.svg() and back.svg(most=1) == r.svg(most=1)
    assert back._repr_svg_() == r._repr_svg_()


def test_exceptions_and_tables_pickle_with_what_they_carry():
    with pytest.raises(boardsolve.LimitReached) as e:
        boardsolve.solve(Q8, goal="count", size=28, node_limit=1000)
    back = pickle.loads(pickle.dumps(e.value))
    assert str(back) == str(e.value) and back.result.to_json() == e.value.result.to_json()
    with pytest.raises(boardsolve.PuzzleError) as p:
        boardsolve.solve('kind = "independent"\n[board]\nsize = 0\n')
    err = pickle.loads(pickle.dumps(p.value))
    assert (err.file, err.line, err.column, err.key) == (
        p.value.file, p.value.line, p.value.column, p.value.key)
    table = boardsolve.compare(Q8, ["bitmask", "dlx"], goal="count")
    again = pickle.loads(pickle.dumps(table))
    assert str(again) == str(table) and again.agree


# --- strategies without a puzzle ----------------------------------------------------------


def test_strategies_without_a_puzzle_lists_every_kind():
    rows = boardsolve.strategies()
    kinds = {r["kind"] for r in rows}
    assert kinds == {"independent", "domination", "cover", "tour", "lines", "tiling", "sudoku"}
    assert all(set(r) == {"kind", "name", "about", "parts"} and r["about"] for r in rows)
    # Each kind's list is the one a puzzle of that kind gets.
    queens = {r["name"] for r in boardsolve.strategies(Q8)}
    assert queens == {r["name"] for r in rows if r["kind"] == "independent"}
    with pytest.raises(TypeError):
        boardsolve.strategies(goal="count")


# --- exit and fork ------------------------------------------------------------------------


@pytest.mark.parametrize("search", [
    "boardsolve.count_exact_cover(*queens_cover(30), threads=1)",
    "list(boardsolve.exact_cover(*queens_cover(30)))",
    "boardsolve.solve(Q8, goal='count', size=30, threads=1)",
])
def test_exit_with_a_daemon_thread_inside_a_search_is_clean(search):
    code = (
        "import threading, time\n"
        "import boardsolve\n"
        "from test_boardsolve import queens_cover, Q8\n"
        f"threading.Thread(target=lambda: {search}, daemon=True).start()\n"
        "time.sleep(0.5)\n"
        "print('exiting', flush=True)\n"
    )
    start = time.perf_counter()
    run = run_python(code, timeout=60)
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert "exiting" in run.stdout and "FATAL" not in run.stderr
    assert time.perf_counter() - start < 30


def test_an_iterator_in_a_forked_child_is_a_runtime_error():
    code = (
        "import os, time\n"
        "import boardsolve\n"
        "from test_boardsolve import queens_cover\n"
        "it = boardsolve.exact_cover(*queens_cover(8))\n"
        "first = next(it)\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    try:\n"
        "        next(it)\n"
        "        os._exit(3)\n"
        "    except RuntimeError as e:\n"
        "        print('child:', e, flush=True)\n"
        "        os._exit(0 if 'fork' in str(e) else 4)\n"
        "deadline = time.time() + 20\n"
        "while time.time() < deadline:\n"
        "    done, status = os.waitpid(pid, os.WNOHANG)\n"
        "    if done:\n"
        "        break\n"
        "    time.sleep(0.05)\n"
        "else:\n"
        "    os.kill(pid, 9)\n"
        "    os.waitpid(pid, 0)\n"
        "    sys.exit('the child hung')\n"
        "assert os.WEXITSTATUS(status) == 0, os.WEXITSTATUS(status)\n"
        "# The parent's iteration goes on.\n"
        "assert len([first] + list(it)) == 92\n"
        "print('parent: ok')\n"
    )
    run = run_python(code, timeout=60)
    assert run.returncode == 0, (run.stdout, run.stderr[-2000:])
    assert "child:" in run.stdout and "parent: ok" in run.stdout
