"""boardsolve: chessboard puzzles and exact cover, from Python.

    >>> import boardsolve
    >>> boardsolve.solve("puzzles/queens8.toml", goal="count").count
    92

``solve`` reads a puzzle file (or its TOML text), ``exact_cover`` and ``count_exact_cover``
take an exact cover as Python lists, ``strategies`` and ``compare`` list and race the
strategies of a puzzle. The searches run in Rust, without the GIL; Ctrl-C stops them.
"""

from __future__ import annotations

import difflib as _difflib
import json as _json
import os as _os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from . import _boardsolve
from .errors import BoardsolveError, LimitReached, PuzzleError, StrategyError

__all__ = [
    "solve",
    "exact_cover",
    "count_exact_cover",
    "strategies",
    "compare",
    "Result",
    "Comparison",
    "BoardsolveError",
    "PuzzleError",
    "StrategyError",
    "LimitReached",
]

try:
    from importlib.metadata import version as _version

    __version__ = _version("boardsolve")
except Exception:  # not installed as a distribution (a source tree on sys.path)
    __version__ = "0"

Puzzle = Union[str, "_os.PathLike[str]"]

# Knuth's exact-cover formats, read as such by their extension.
_KNUTH_EXTENSIONS = (".dlx", ".xcc", ".mcc")
# The kinds whose solutions are squares of a board (a tour's in visiting order): given as
# (row, col) tuples.
_SQUARE_KINDS = ("independent", "domination", "tour")


def _read(puzzle: Puzzle, input: Optional[str]) -> "tuple[str, str, bool]":
    """The puzzle's text, its name for errors, and whether it is in Knuth's format."""
    if input not in (None, "toml", "knuth"):
        raise PuzzleError(
            f"input {input!r}: accepted: 'toml' or 'knuth'", "<arguments>", 0, 0, "input"
        )
    one_line = isinstance(puzzle, str) and "\n" not in puzzle
    if isinstance(puzzle, _os.PathLike) or (
        one_line and ("=" not in puzzle or _os.path.exists(puzzle))
    ):
        path = _os.fspath(puzzle)
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            # As `solve` says it: the place of the first byte that is not UTF-8.
            line = raw.count(b"\n", 0, e.start) + 1
            column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
            raise PuzzleError(
                f"{path}:{line}:{column}: byte 0x{raw[e.start]:02X} is not UTF-8",
                path,
                line,
                column,
                "",
            ) from None
        knuth = input == "knuth" or (
            input is None and path.lower().endswith(_KNUTH_EXTENSIONS)
        )
        return text, path, knuth
    if isinstance(puzzle, str):
        return puzzle, "<string>", input == "knuth"
    raise TypeError(
        f"puzzle: {type(puzzle).__name__}: accepted: a path (str or os.PathLike) or the "
        "puzzle's TOML text"
    )


def _toml(value: Any) -> str:
    """A Python value as a TOML value, for an override."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(
        f"{value!r}: accepted as an override: bool, int, float, str, list, tuple or dict"
    )


# The file's top-level keys: a keyword of another name is a misspelt argument.
_TOP_KEYS = ("title", "kind", "board", "piece", "rules", "solve")


def _sets(
    overrides: Mapping[str, Any], dotted: Optional[Mapping[str, Any]], arguments: Sequence[str]
) -> List[str]:
    """Overrides as ``--set`` takes them: ``rules__count=5`` is ``rules.count=5``; ``dotted``
    holds keys with their dots."""
    for k in overrides:
        if k.split("__")[0] not in _TOP_KEYS:
            near = _difflib.get_close_matches(k, list(arguments) + list(_TOP_KEYS), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise TypeError(
                f"unexpected keyword argument {k!r}{hint} (a key of the file is written with "
                f"'__' for its dots, from one of {', '.join(_TOP_KEYS)}: rules__count=5)"
            )
    if dotted is not None and not isinstance(dotted, Mapping):
        raise TypeError(
            f"set: {type(dotted).__name__}: accepted: a dict of dotted keys, "
            "e.g. set={'rules.count': 5}"
        )
    sets = [f"{k.replace('__', '.')}={_toml(v)}" for k, v in overrides.items()]
    return sets + [f"{k}={_toml(v)}" for k, v in (dotted or {}).items()]


def _whole(name: str, value: Optional[int], least: int = 0) -> Optional[int]:
    """An argument that is a whole number, ``least`` or more, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value < 2**63:
        raise PuzzleError(
            f"{name} {value!r}: accepted: a whole number, {least} or more (below 2^63)",
            "<arguments>", 0, 0, name,
        )
    return value


def _number(v: Any) -> Any:
    """A count as JSON holds it (a string beyond 2^53) as a Python int."""
    return int(v) if isinstance(v, str) and v.isdigit() else v


def _square(x: Any) -> Any:
    """A square [row, col] as a tuple; a mixed army's {"square", "piece"} with its square
    as a tuple."""
    if isinstance(x, list):
        return tuple(x)
    if isinstance(x, dict) and isinstance(x.get("square"), list):
        return {**x, "square": tuple(x["square"])}
    return x


def _piece(p: Any) -> Any:
    """A tiling's piece with its cells as tuples."""
    if isinstance(p, dict) and isinstance(p.get("cells"), list):
        return {**p, "cells": [tuple(c) for c in p["cells"]]}
    return p


class Result:
    """The answer of a solve.

    Attributes: ``count`` (an int, exact at any size, or None), ``optimum``, ``proven``,
    ``status`` ("solved", "no-solution", "limit"), ``solutions`` (each a list of
    ``(row, col)`` squares for the chess kinds, or the kind's own form: a tour's squares in
    order, a tiling's pieces with their cells, a sudoku's rows), ``stats`` (a dict), ``kind``, ``strategy``,
    ``goal``, ``title``. ``to_json()`` gives the report ``solve --format json`` writes;
    ``str()`` the text report; in Jupyter the solutions are drawn.
    """

    def __init__(self, native: Any) -> None:
        self._native = native
        data = _json.loads(native.json)
        self._data = data
        self.kind: str = data.get("kind", "")
        self.strategy: str = data.get("strategy", "")
        self.goal: str = data.get("goal", "")
        self.title: Optional[str] = data.get("title")
        self.status: str = data.get("status", "")
        self.count: Optional[int] = _number(data.get("count"))
        self.optimum: Optional[int] = data.get("optimum")
        self.proven: bool = bool(data.get("proven"))
        self.reason: Optional[str] = data.get("reason")
        self.stopped: Optional[str] = data.get("stopped")
        stats = dict(data.get("stats") or {})
        if "solutions" in stats:
            stats["solutions"] = _number(stats["solutions"])
        self.stats: Dict[str, Any] = stats
        sols = data.get("solutions") or []
        if self.kind in _SQUARE_KINDS:
            sols = [[_square(sq) for sq in s] for s in sols]
        elif self.kind == "tiling":
            sols = [[_piece(p) for p in s] for s in sols]
        self.solutions: List[Any] = sols

    @property
    def solution(self) -> Optional[Any]:
        """The first solution, or None."""
        return self.solutions[0] if self.solutions else None

    def to_json(self) -> str:
        """The report as ``solve --format json`` writes it."""
        return self._native.json

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict (counts beyond 2^53 as strings, as in the JSON)."""
        return _json.loads(self._native.json)

    def svg(self, most: Optional[int] = None) -> Optional[str]:
        """The solutions kept (at most ``most`` of them) drawn in SVG, or None where there
        is nothing to draw (a count keeps no solution) or the board is too large."""
        return self._native.svg(most)

    def _repr_svg_(self) -> Optional[str]:
        # A notebook draws the first few: a goal all may keep thousands.
        return self._native.svg(_DRAWN_IN_NOTEBOOK)

    def __str__(self) -> str:
        return self._native.text()

    def __repr__(self) -> str:
        return f"<boardsolve.Result {self._native.summary}>"


# Solutions a notebook draws of a result.
_DRAWN_IN_NOTEBOOK = 12


def _result(native: Any) -> Result:
    result = Result(native)
    if native.limited:
        raise LimitReached(native.summary, result)
    return result


def solve(
    puzzle: Puzzle,
    goal: Optional[str] = None,
    strategy: Optional[str] = None,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    unique: bool = False,
    *,
    limit: Optional[int] = None,
    node_limit: Optional[int] = None,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    input: Optional[str] = None,
    set: Optional[Mapping[str, Any]] = None,
    **overrides: Any,
) -> Result:
    """Solve a puzzle, as ``solve FILE`` does with the same flags.

    ``puzzle`` is a path (an os.PathLike, or a one-line str that names an existing file or
    holds no '=') or the TOML text itself. ``goal``, ``strategy``, ``threads`` (default:
    every core), ``time_limit`` (seconds), ``unique``, ``limit`` (solutions kept for goal
    all, the count staying exact; with goal count, where the count stops) and
    ``node_limit`` are the flags of the same names. ``size``, ``width`` and ``height``
    resize the board. Any other keyword sets a key of the file, ``__``
    standing for '.': ``rules__count=5`` is ``--set rules.count=5``; ``set={"rules.count":
    5}`` does the same with dotted keys.

    Raises PuzzleError (bad file or override, with file, line, column and key),
    StrategyError, LimitReached (a time or node limit: its ``result`` holds the answer so
    far) and KeyboardInterrupt (Ctrl-C, which stops the search).
    """
    text, name, knuth = _read(puzzle, input)
    sets = _sets(overrides, set, _SOLVE_ARGUMENTS)
    native = _boardsolve.solve(
        text,
        name,
        knuth,
        sets,
        _whole("size", size, 1),
        _whole("width", width, 1),
        _whole("height", height, 1),
        goal,
        strategy,
        unique,
        _whole("threads", threads, 1),
        time_limit,
        _whole("limit", limit),
        _whole("node_limit", node_limit, 1),
    )
    return _result(native)


_SOLVE_ARGUMENTS = ("goal", "strategy", "threads", "time_limit", "unique", "limit",
                    "node_limit", "size", "width", "height", "input", "set")


def strategies(
    puzzle: Puzzle,
    goal: Optional[str] = None,
    unique: bool = False,
    *,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    input: Optional[str] = None,
    set: Optional[Mapping[str, Any]] = None,
    **overrides: Any,
) -> List[Dict[str, Any]]:
    """Every strategy of the puzzle's kind, as ``solve strategies FILE`` lists them: a dict
    each with ``name``, ``about``, ``applies`` (bool), ``reason`` (why not, or None),
    ``parts`` (it takes ``--part``) and ``auto`` (the one auto picks)."""
    text, name, knuth = _read(puzzle, input)
    sets = _sets(overrides, set, ("goal", "unique", "size", "width", "height", "input", "set"))
    return _boardsolve.strategies(
        text, name, knuth, sets, _whole("size", size, 1), _whole("width", width, 1),
        _whole("height", height, 1), goal, unique
    )


class Comparison(List[Dict[str, Any]]):
    """Rows of ``compare``, one a strategy: ``strategy``, ``status``, ``count``,
    ``optimum``, ``proven``, ``seconds``, ``nodes``, ``result``. ``agree`` says whether the
    strategies that finished gave the same answer (None where none finished)."""

    @property
    def agree(self) -> Optional[bool]:
        """Whether the strategies that finished gave the same answer; None where none
        finished."""
        done = {(r["count"], r["optimum"], r["status"]) for r in self if r["proven"]}
        return len(done) <= 1 if done else None

    def __str__(self) -> str:
        lines = [f"{'strategy':<12} {'status':<12} {'answer':>28} {'seconds':>10} {'nodes':>14}"]
        for r in self:
            lines.append(
                f"{r['strategy']:<12} {r['status']:<12} {_answer(r):>28} "
                f"{r['seconds']:>10.4f} {r['nodes']:>14}"
            )
        return "\n".join(lines)


def _answer(row: Mapping[str, Any]) -> str:
    """A row's answer as ``solve compare`` writes it: "-" where it was not proven."""
    if not row["proven"]:
        return "- (budget)"
    if row["status"] == "no-solution":
        return "no solution"
    if row["optimum"] is not None and row["count"] is not None:
        return f"optimum {row['optimum']}, {row['count']}"
    if row["optimum"] is not None:
        return f"optimum {row['optimum']}"
    return str(row["count"])


def compare(
    puzzle: Puzzle,
    strategies: Optional[Sequence[str]] = None,
    goal: Optional[str] = None,
    budget: float = 10.0,
    threads: Optional[int] = None,
    unique: bool = False,
    *,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    input: Optional[str] = None,
    set: Optional[Mapping[str, Any]] = None,
    **overrides: Any,
) -> Comparison:
    """Run each strategy that takes the puzzle (or those named) within ``budget`` seconds
    each, as ``solve compare FILE`` does, and return their answers side by side."""
    text, name, knuth = _read(puzzle, input)
    sets = _sets(overrides, set, ("strategies", "goal", "budget", "threads", "unique", "size",
                                  "width", "height", "input", "set"))
    if isinstance(strategies, str):
        raise TypeError(
            f"strategies: {strategies!r}: accepted: a list of strategy names, e.g. "
            "['bitmask', 'dlx']"
        )
    rows = _boardsolve.compare(
        text,
        name,
        knuth,
        sets,
        _whole("size", size, 1),
        _whole("width", width, 1),
        _whole("height", height, 1),
        goal,
        unique,
        _whole("threads", threads, 1),
        list(strategies) if strategies is not None else None,
        budget,
    )
    out = Comparison()
    for strategy, native in rows:
        r = Result(native)
        out.append(
            {
                "strategy": strategy,
                "status": r.status,
                "count": r.count,
                "optimum": r.optimum,
                "proven": r.proven,
                "seconds": r.stats.get("elapsed_ms", 0.0) / 1000.0,
                "nodes": r.stats.get("nodes", 0),
                "result": r,
            }
        )
    return out


def exact_cover(
    items: Iterable[Union[str, int]],
    options: Iterable[Iterable[Union[str, int]]],
    secondary: Iterable[Union[str, int]] = (),
    multiplicity: Optional[Mapping[Union[str, int], Union[int, "tuple[int, int]"]]] = None,
) -> Iterator[List[int]]:
    """The solutions of an exact cover, lazily, each a list of option indices.

    ``items`` are the primary items (covered exactly once, or as ``multiplicity`` says:
    ``{item: n}`` or ``{item: (lo, hi)}``), ``secondary`` the items covered at most once,
    and each option a list of item names; a secondary item may carry a colour as
    ``"item:colour"`` (options that agree on its colour may share it), as in Knuth's
    format. The search runs ahead of the loop by a few solutions and stops when the
    iterator is dropped or ``close()``d.
    """
    return _boardsolve.exact_cover(
        items, options, secondary, dict(multiplicity) if multiplicity else None
    )


def count_exact_cover(
    items: Iterable[Union[str, int]],
    options: Iterable[Iterable[Union[str, int]]],
    secondary: Iterable[Union[str, int]] = (),
    multiplicity: Optional[Mapping[Union[str, int], Union[int, "tuple[int, int]"]]] = None,
    *,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    strategy: Optional[str] = None,
) -> int:
    """The number of solutions of an exact cover given as lists (see ``exact_cover``),
    counted on ``threads`` (default: every core). A time limit raises LimitReached with the
    count so far in its ``result``."""
    native = _boardsolve.count_exact_cover(
        items,
        options,
        secondary,
        dict(multiplicity) if multiplicity else None,
        _whole("threads", threads, 1),
        time_limit,
        strategy,
    )
    result = _result(native)
    if result.count is None:
        raise BoardsolveError(f"the count ended without a number: {native.summary}")
    return result.count
