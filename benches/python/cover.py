"""Exact cover from Python: boardsolve against exact-cover, xcover and dlx.

What it measures: the seconds each package takes to count every solution of two exact
covers built here from Python lists (no data files), starting each call from the same
lists, so that each package's conversion into its own form is timed with its search:

1. the 12 pentominoes packing a 6x10 rectangle: 12 piece items and 60 cell items, an
   option per placement of a piece (every rotation and reflection), 2,056 options;
   9,356 solutions (2,339 up to the rectangle's 4 symmetries);
2. N-Queens, N = 12: primary items the rows R0..R11 and columns C0..C11, secondary items
   the diagonals A0..A22 and B0..B22, an option [Ri, Cj, A(i+j), B(i-j+11)] per square;
   14,200 solutions.

The packages:

* ``boardsolve.count_exact_cover`` (Rust), on 1 thread (``threads=1``) and on every core
  (``threads=None``).
* ``exact-cover`` (C behind numpy): ``exact_cover.get_solution_count(matrix)`` on a
  boolean matrix (options x items). It has no secondary items: each diagonal is made
  primary and gets a slack option of its own (an option holding that diagonal alone), so
  "covered exactly once, by a queen or by its slack option" means "at most one queen".
  Every solution extends in one way only, so the count is unchanged.
* ``xcover`` (Numba): ``xcover.covers(options, primary=, secondary=)`` is a generator
  of solutions, with no count function: the solutions are iterated and counted. Its
  Numba functions are compiled at ``import xcover`` (explicit signatures, cached on disk
  in its ``__pycache__``); the import is timed and reported apart, and ``--cold-jit``
  times it in a child process with an empty Numba cache, i.e. the compilation itself.
* ``dlx`` (pure Python, Sebastian Raaphorst's DLX): ``dlx.DLX(columns, rows).solve()``
  is a generator of solutions, with secondary columns (``DLX.SECONDARY``) of its own.

Each package runs once first (the warm-up, reported as "first run"), then up to
``--runs`` more timed runs (``time.perf_counter``) while they fit in ``--budget``
seconds for that package and problem; the table gives their median, in wall-clock
seconds and in this process's CPU seconds (every thread; on a busy machine the wall clock
also counts the time other processes had the cores). A package whose
warm-up run goes past the budget is stopped where it can be (the iterating ones) and
reported as a lower bound. Every count is checked against the known one. The ratio
column is boardsolve on 1 thread divided by the row's median (on boardsolve's all-cores row,
its speed-up); the goal is that boardsolve on 1 thread takes at most 0.2 of the fastest
other package's time.

Then it times the calling overhead of ``boardsolve.solve`` on a tiny puzzle
(``puzzles/queens8.toml`` at size 4, goal count, 1 thread: median of 1,000 calls) and of
``count_exact_cover`` on Knuth's 7-item example. ``--profile`` adds where boardsolve's
time goes: building from the lists alone, the same cover given as Knuth's text to
``solve``, the tiling's own TOML file, and the ``dxz`` strategy.

How to run it (from anywhere; the paths are taken from this file's place in the
repository), with boardsolve built into a virtual environment and the other packages
installed into the same environment (a package that is not installed is skipped)::

    pip install exact-cover xcover dlx
    python benches/python/cover.py [--runs N] [--budget SECONDS] [--cold-jit] [--profile]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------- problems

# The twelve pentominoes, '#' a cell (Conway's letters).
PENTOMINOES = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["####", "#..."],
    "N": ["##..", ".###"],
    "P": ["###", "##."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["####", ".#.."],
    "Z": ["##.", ".#.", ".##"],
}


def orientations(rows: Sequence[str]) -> List[Tuple[Tuple[int, int], ...]]:
    """The distinct rotations and reflections of a piece, each normalised to (0, 0)."""
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    seen = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]  # a quarter turn
            r0 = min(r for r, _ in cells)
            c0 = min(c for _, c in cells)
            seen.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]  # a reflection
    return sorted(seen)


class Problem:
    def __init__(
        self,
        name: str,
        items: List[str],
        options: List[List[str]],
        secondary: List[str],
        expected: int,
    ) -> None:
        self.name = name
        self.items = items
        self.options = options
        self.secondary = secondary
        self.expected = expected


def pentominoes(height: int = 6, width: int = 10) -> Problem:
    cells = [f"r{r}c{c}" for r in range(height) for c in range(width)]
    options = []
    for piece, rows in PENTOMINOES.items():
        for shape in orientations(rows):
            for dr in range(height):
                for dc in range(width):
                    placed = [(r + dr, c + dc) for r, c in shape]
                    if all(r < height and c < width for r, c in placed):
                        options.append([piece] + [f"r{r}c{c}" for r, c in placed])
    assert len(options) == 2056, len(options)
    return Problem(
        f"pentominoes {height}x{width}", list(PENTOMINOES) + cells, options, [], 9356
    )


def queens(n: int = 12) -> Problem:
    items = [f"R{i}" for i in range(n)] + [f"C{j}" for j in range(n)]
    secondary = [f"A{k}" for k in range(2 * n - 1)] + [f"B{k}" for k in range(2 * n - 1)]
    options = [
        [f"R{i}", f"C{j}", f"A{i + j}", f"B{i - j + n - 1}"]
        for i in range(n)
        for j in range(n)
    ]
    known = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712}
    return Problem(f"{n}-queens", items, options, secondary, known[n])


# --------------------------------------------------------------------------- packages


class TimedOut(Exception):
    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


Runner = Callable[[Problem, float], int]  # (problem, deadline) -> count


def run_boardsolve(threads: Optional[int]) -> Runner:
    import boardsolve

    def run(p: Problem, deadline: float) -> int:
        return boardsolve.count_exact_cover(p.items, p.options, p.secondary, threads=threads)

    return run


def run_exact_cover(p: Problem, deadline: float) -> int:
    import numpy as np
    import exact_cover

    # No secondary items: each becomes primary with a slack option holding it alone.
    columns = p.items + p.secondary
    index = {name: i for i, name in enumerate(columns)}
    rows = [[index[x] for x in option] for option in p.options]
    rows += [[index[s]] for s in p.secondary]
    matrix = np.zeros((len(rows), len(columns)), dtype=bool)
    for r, row in enumerate(rows):
        matrix[r, row] = True
    return int(exact_cover.get_solution_count(matrix))


def count_until(solutions, deadline: float) -> int:
    count = 0
    for _ in solutions:
        count += 1
        if time.perf_counter() > deadline:
            raise TimedOut(count)
    return count


def run_xcover(p: Problem, deadline: float) -> int:
    import xcover

    return count_until(
        xcover.covers(p.options, primary=p.items, secondary=p.secondary), deadline
    )


def run_dlx(p: Problem, deadline: float) -> int:
    import dlx

    columns = [(x, dlx.DLX.PRIMARY) for x in p.items]
    columns += [(x, dlx.DLX.SECONDARY) for x in p.secondary]
    index = {name: i for i, (name, _) in enumerate(columns)}
    solver = dlx.DLX(columns, [[index[x] for x in option] for option in p.options])
    return count_until(solver.solve(), deadline)


def version(dist: str) -> Optional[str]:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def numba_cache_filled(package: str) -> Optional[bool]:
    """Whether Numba's on-disk cache of the package holds compiled functions."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    where = Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else None
    dirs = [where] if where else [Path(d) / "__pycache__" for d in spec.submodule_search_locations]
    return any(d.is_dir() and any(d.rglob("*.nbi")) for d in dirs)


def cold_import_seconds(module: str) -> Optional[float]:
    """`import module` in a child process with an empty Numba cache: the JIT itself."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True
        )
    if out.returncode != 0:
        print(f"cold import of {module} failed: {out.stderr.strip()[-500:]}")
        return None
    return float(out.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- timing


class Row:
    def __init__(self, problem: str, label: str, is_boardsolve: bool, one_thread: bool) -> None:
        self.problem = problem
        self.label = label
        self.is_boardsolve = is_boardsolve
        self.one_thread = one_thread
        self.first: Optional[float] = None
        self.times: List[float] = []
        self.first_cpu: Optional[float] = None
        self.cpu: List[float] = []  # process CPU seconds (every thread), run by run
        self.timed_out: Optional[Tuple[float, int]] = None  # (seconds, solutions so far)
        self.wrong: Optional[int] = None
        self.note = ""

    @property
    def median(self) -> Optional[float]:
        if self.times:
            return statistics.median(self.times)
        return self.first  # nothing past the warm-up fitted the budget

    @property
    def median_cpu(self) -> Optional[float]:
        if self.cpu:
            return statistics.median(self.cpu)
        return self.first_cpu


def measure(row: Row, runner: Runner, p: Problem, runs: int, budget: float) -> Row:
    start = time.perf_counter()
    c0, t0 = time.process_time(), time.perf_counter()
    try:
        count = runner(p, t0 + budget)
    except TimedOut as stop:
        row.timed_out = (time.perf_counter() - t0, stop.count)
        return row
    row.first = time.perf_counter() - t0
    row.first_cpu = time.process_time() - c0
    if count != p.expected:
        row.wrong = count
        return row
    last = row.first
    while len(row.times) < runs and (time.perf_counter() - start) + last <= budget:
        c0, t0 = time.process_time(), time.perf_counter()
        count = runner(p, float("inf"))
        last = time.perf_counter() - t0
        row.cpu.append(time.process_time() - c0)
        if count != p.expected:
            row.wrong = count
            return row
        row.times.append(last)
    if not row.times:
        row.note = "warm-up run only (the next would pass the budget)"
    return row


def fmt(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    if seconds >= 10:
        return f"{seconds:.1f}"
    if seconds >= 1:
        return f"{seconds:.2f}"
    if seconds >= 0.01:
        return f"{seconds:.3f}"
    return f"{seconds:.4f}"


def median_ms(call: Callable[[], object], n: int) -> float:
    call()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def load() -> str:
    if hasattr(os, "getloadavg"):
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return "unknown"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def knuth_text(p: Problem) -> str:
    """The cover in Knuth's format, as `solve --input knuth` reads it."""
    head = " ".join(p.items) + (" | " + " ".join(p.secondary) if p.secondary else "")
    return "\n".join([f"| {p.name}", head] + [" ".join(o) for o in p.options]) + "\n"


def profile(
    problems: List[Problem], table: Dict[Tuple[str, str], Row], budget: float
) -> None:
    import boardsolve

    print("\n## Where boardsolve's time goes (1 thread)\n")
    print("| problem | what | seconds | nodes | updates |")
    print("|---|---|---:|---:|---:|")
    for p in problems:
        # The lists converted and the solver built, then no search: an extra primary item
        # that no option covers leaves nothing to branch on at the root.
        build = median_ms(
            lambda: boardsolve.count_exact_cover(
                p.items + ["__uncoverable"], p.options, p.secondary, threads=1
            ),
            20,
        )
        print(f"| {p.name} | lists converted, solver built, no search (median of 20) "
              f"| {fmt(build / 1000)} | | |")
        row = table.get((p.name, "1"))
        if row and row.median:
            print(f"| {p.name} | count_exact_cover from the lists (table) | {fmt(row.median)} | | |")
        t0 = time.perf_counter()
        r = boardsolve.solve(knuth_text(p), input="knuth", goal="count", threads=1)
        wall = time.perf_counter() - t0
        assert r.count == p.expected, r.count
        print(f"| {p.name} | solve() on the same cover as Knuth's text, wall "
              f"(search {r.stats.get('elapsed_ms', 0) / 1000:.3f} s) | {fmt(wall)} "
              f"| {r.stats.get('nodes', '')} | {r.stats.get('updates', '')} |")
        t0 = time.perf_counter()
        try:
            n = boardsolve.count_exact_cover(
                p.items, p.options, p.secondary, threads=1, strategy="dxz", time_limit=budget
            )
            assert n == p.expected, n
            took = fmt(time.perf_counter() - t0)
        except boardsolve.LimitReached:
            took = f"> {budget:g} (time limit)"
        print(f"| {p.name} | count_exact_cover(strategy=\"dxz\") | {took} | | |")
    toml = ROOT / "puzzles" / "pentominoes6x10.toml"
    if toml.exists() and any(p.name.startswith("pentominoes") for p in problems):
        t0 = time.perf_counter()
        r = boardsolve.solve(str(toml), goal="count", threads=1)
        wall = time.perf_counter() - t0
        print(f"| pentominoes 6x10 | solve(\"puzzles/pentominoes6x10.toml\") (kind tiling, "
              f"strategy {r.strategy}; search {r.stats.get('elapsed_ms', 0) / 1000:.3f} s) "
              f"| {fmt(wall)} | {r.stats.get('nodes', '')} | {r.stats.get('updates', '')} |")


# --------------------------------------------------------------------------- main


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5,
                    help="timed runs after the warm-up, at most (default 5)")
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds per package and problem, warm-up included (default 60)")
    ap.add_argument("--calls", type=int, default=1000,
                    help="calls timed for the overhead of solve (default 1000)")
    ap.add_argument("--cold-jit", action="store_true",
                    help="time `import xcover` with an empty Numba cache (a child process)")
    ap.add_argument("--profile", action="store_true",
                    help="break boardsolve's time down (build, search, Knuth text, dxz)")
    ap.add_argument("--only", choices=["pentominoes", "queens"],
                    help="run one problem only")
    args = ap.parse_args(argv)

    try:
        import boardsolve
    except ImportError:
        print("boardsolve is not installed in this Python; build it first (see python/README.md)")
        return 2

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print("# Exact cover from Python lists: count every solution\n")
    print(f"- command: `{' '.join([Path(sys.executable).name] + sys.argv)}`")
    print(f"- machine: {cpu_model()}, {cores} cores (os.cpu_count() = {os.cpu_count()}), "
          f"{platform.system()} {platform.release()}")
    print(f"- Python {platform.python_version()}; load average at start: {load()}")
    print(f"- at most {args.runs} timed runs after one warm-up, within {args.budget:g} s "
          "per package and problem; medians in seconds, wall clock (perf_counter) and "
          "this process's CPU time, every thread (process_time: on a busy machine it "
          "counts only the time the process ran)")

    packages: List[Tuple[str, str, bool, bool, Runner]] = []  # key, label, bs?, 1t?, runner
    bsv = version("boardsolve") or getattr(boardsolve, "__version__", "?")
    packages.append(("1", f"boardsolve {bsv} (threads=1)", True, True, run_boardsolve(1)))
    packages.append(("all", f"boardsolve {bsv} (threads=None: {cores} cores)", True, False,
                     run_boardsolve(None)))
    skipped = []
    for dist, module, runner in (
        ("exact-cover", "exact_cover", run_exact_cover),
        ("xcover", "xcover", run_xcover),
        ("dlx", "dlx", run_dlx),
    ):
        v = version(dist)
        if v is None or importlib.util.find_spec(module) is None:
            skipped.append(f"- {dist}: not installed, skipped (`pip install {dist}`)")
            continue
        label = f"{dist} {v}"
        if dist == "exact-cover":
            label += " (slack options)"
        packages.append((dist, label, False, False, runner))
    for line in skipped:
        print(line)

    if any(k == "xcover" for k, *_ in packages):
        cached = numba_cache_filled("xcover")
        t0 = time.perf_counter()
        import xcover  # noqa: F401  (the Numba functions compile here, or load from cache)
        t = time.perf_counter() - t0
        how = {True: "loaded from Numba's on-disk cache",
               False: "compiled by Numba (its cache was empty)",
               None: "cache state unknown"}[cached]
        print(f"- `import xcover` (numba, numpy included): {t:.2f} s, {how}")
        if args.cold_jit:
            cold = cold_import_seconds("xcover")
            if cold is not None:
                print(f"- `import xcover` with an empty Numba cache (child process, "
                      f"JIT compilation): {cold:.2f} s")

    problems = {"pentominoes": pentominoes, "queens": lambda: queens(12)}
    problems = [make() for key, make in problems.items() if args.only in (None, key)]
    print()
    print("| problem | package (version) | first run (s) | median (s) | median CPU (s) "
          "| runs | boardsolve 1 thread ÷ this |")
    print("|---|---|---:|---:|---:|---:|---:|")
    table: Dict[Tuple[str, str], Row] = {}
    summary = []
    ok = True
    for p in problems:
        rows = []
        for key, label, is_bs, one, runner in packages:
            row = measure(Row(p.name, label, is_bs, one), runner, p, args.runs, args.budget)
            table[(p.name, key)] = row
            rows.append(row)
        bs1 = table[(p.name, "1")].median
        others = [r for r in rows if not r.is_boardsolve and r.wrong is None and not r.timed_out]
        fastest = min(others, key=lambda r: r.median) if others else None
        for row in rows:
            if row.wrong is not None:
                ok = False
                cells = ["-", f"WRONG COUNT {row.wrong} (expected {p.expected})", "-", "-", "-"]
            elif row.timed_out:
                secs, sols = row.timed_out
                cells = [f"> {secs:.1f} (stopped at {sols:,} of {p.expected:,} solutions)",
                         f"> {secs:.1f}", "-", "0", f"< {bs1 / secs:.4f}" if bs1 else "-"]
            else:
                ratio = "" if row.one_thread or not bs1 else f"{bs1 / row.median:.3f}"
                if row is fastest:
                    ratio = f"**{ratio}** (fastest other)"
                runs = str(len(row.times)) if row.times else "1 (warm-up only)"
                cells = [fmt(row.first), fmt(row.median), fmt(row.median_cpu), runs, ratio]
            print(f"| {p.name} | {row.label} | " + " | ".join(cells) + " |")
        if fastest and bs1:
            r = bs1 / fastest.median
            verdict = "met" if r <= 0.2 else "NOT met"
            summary.append(f"- {p.name}: boardsolve (1 thread) {fmt(bs1)} s / fastest other, "
                           f"{fastest.label}, {fmt(fastest.median)} s = {r:.3f}: "
                           f"goal <= 0.2 {verdict}")
        else:
            summary.append(f"- {p.name}: no other package to compare with")
        sys.stdout.flush()
    print()
    print("Counts checked against the known ones ("
          + ", ".join(f"{p.name} {p.expected:,}" for p in problems) + "): "
          + ("all agree." if ok else "SOME WRONG, see the table."))
    keys = {k for k, *_ in packages}
    if "exact-cover" in keys:
        print("exact-cover has no secondary items: each diagonal is primary with a slack option "
              "holding it alone ('at most once' as 'exactly once, by a queen or by its slack').")
    if keys & {"xcover", "dlx"}:
        print("xcover and dlx have no count function: their solutions are iterated and counted.")
    print()
    print("## Goal: boardsolve on 1 thread at most 0.2 of the fastest other package\n")
    print("\n".join(summary))

    print("\n## Calling overhead\n")
    queens8 = str(ROOT / "puzzles" / "queens8.toml")
    ms = median_ms(lambda: boardsolve.solve(queens8, size=4, goal="count", threads=1), args.calls)
    r = boardsolve.solve(queens8, size=4, goal="count", threads=1)
    print(f"- `boardsolve.solve(\"puzzles/queens8.toml\", size=4, goal=\"count\", threads=1)` "
          f"(count {r.count}): median of {args.calls} calls {ms:.3f} ms")
    k7 = (list("abcdefg"), [["c", "e"], ["a", "d", "g"], ["b", "c", "f"], ["a", "d", "f"],
                            ["b", "g"], ["d", "e", "g"]])
    ms = median_ms(lambda: boardsolve.count_exact_cover(*k7, threads=1), args.calls)
    print(f"- `boardsolve.count_exact_cover` on Knuth's 7-item example (1 solution), "
          f"threads=1: median of {args.calls} calls {ms:.3f} ms")

    if args.profile:
        profile(problems, table, args.budget)

    print(f"\n- load average at the end: {load()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
