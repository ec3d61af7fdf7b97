"""boardsolve: chessboard puzzles and exact cover, from Python.

    >>> import boardsolve
    >>> boardsolve.solve("puzzles/queens8.toml", goal="count").count
    92

``solve`` reads a puzzle file (or its TOML text), ``exact_cover`` and ``count_exact_cover``
take an exact cover as Python lists, ``strategies`` and ``compare`` list and race the
strategies of a puzzle. The searches run in Rust, without the GIL; Ctrl-C stops them.
"""

from __future__ import annotations

import atexit as _atexit
import difflib as _difflib
import json as _json
import math as _math
import numbers as _numbers
import operator as _operator
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


def _read(puzzle: Puzzle, input: Optional[str]) -> "tuple[Optional[str], Optional[str], str, bool]":
    """The puzzle's text (None where the extension reads it from its file), its path (None
    where it was given as text), its name for errors, and whether it is in Knuth's format.
    A file is read in Rust, as ``solve`` reads it: within the memory budget."""
    if input is not None and not isinstance(input, str):
        raise TypeError(f"input: {_shown(input)}: accepted: 'toml', 'knuth' or None")
    if input not in (None, "toml", "knuth"):
        raise PuzzleError(
            f"input {input!r}: accepted: 'toml' or 'knuth'", "<arguments>", 0, 0, "input"
        )
    one_line = isinstance(puzzle, str) and "\n" not in puzzle
    if isinstance(puzzle, _os.PathLike) or (
        one_line and ("=" not in puzzle or _os.path.exists(puzzle))
    ):
        path = _os.fsdecode(_os.fspath(puzzle))
        knuth = input == "knuth" or (
            input is None and path.lower().endswith(_KNUTH_EXTENSIONS)
        )
        return None, path, path, knuth
    if isinstance(puzzle, str):
        return puzzle, None, "<string>", input == "knuth"
    raise TypeError(
        f"puzzle: {_shown(puzzle)}: accepted: a path (str or os.PathLike) or the puzzle's TOML "
        "text"
    )


def _short(value: Any) -> str:
    """A value's repr, cut short for an error."""
    try:
        text = repr(value)
    except ValueError:  # an int too long for repr
        return f"an int of {value.bit_length()} bits"
    return text if len(text) <= 60 else text[:57] + "..."


def _shown(value: Any) -> str:
    """A value as an error quotes it: its repr, cut short, and its type."""
    return f"{_short(value)} ({type(value).__name__})"


def _toml(value: Any, key: str) -> str:
    """A Python value as a TOML value, for the override of ``key``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        for k in value:
            if not isinstance(k, str):
                raise TypeError(f"{key}: key {_shown(k)}: accepted: str keys")
        return "{ " + ", ".join(
            f"{_json.dumps(k)} = {_toml(v, f'{key}.{k}')}" for k, v in value.items()
        ) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v, f"{key}[{i}]") for i, v in enumerate(value)) + "]"
    raise TypeError(
        f"{key}: {_shown(value)}: accepted as an override: bool, int, float, str, list, tuple "
        "or dict"
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
            f"set: {_shown(dotted)}: accepted: a dict of dotted keys, e.g. "
            "set={'rules.count': 5}"
        )
    for k in dotted or {}:
        if not isinstance(k, str):
            raise TypeError(f"set: key {_shown(k)}: accepted: str keys, e.g. 'rules.count'")
    sets = []
    for k, v in overrides.items():
        key = k.replace("__", ".")
        sets.append(f"{key}={_toml(v, key)}")
    return sets + [f"{k}={_toml(v, k)}" for k, v in (dotted or {}).items()]


def _argument_error(name: str, message: str) -> PuzzleError:
    """An argument out of its range: a PuzzleError (a ValueError) keyed by its name."""
    return PuzzleError(message, "<arguments>", 0, 0, name)


def _whole(name: str, value: Any, least: int = 0) -> Optional[int]:
    """An argument that is a whole number, ``least`` or more (below 2^63), or None: another
    type is a TypeError, a number out of range a PuzzleError (a ValueError)."""
    if value is None:
        return None
    try:
        if isinstance(value, bool):
            raise TypeError
        number = _operator.index(value)
    except TypeError:
        raise TypeError(
            f"{name}: {_shown(value)}: accepted: a whole number (an int), {least} or more"
        ) from None
    if not least <= number < 2**63:
        raise _argument_error(
            name,
            f"{name} {_short(number)}: accepted: a whole number, {least} or more (below 2^63)",
        )
    return number


def _seconds(name: str, value: Any) -> Optional[float]:
    """An argument in seconds, or None: more than 0 and less than 1e9, as ``solve`` takes
    ``--time-limit``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, _numbers.Real):
        raise TypeError(f"{name}: {_shown(value)}: accepted: seconds, an int or a float")
    try:
        seconds = float(value)
    except OverflowError:
        seconds = _math.inf
    if not (_math.isfinite(seconds) and 0 < seconds < 1e9):
        raise _argument_error(
            name, f"{name} {_short(value)}: accepted: seconds, more than 0 and less than 1e9"
        )
    return seconds


def _text(name: str, value: Any, example: str) -> Optional[str]:
    """An argument that is a str, or None."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name}: {_shown(value)}: accepted: a str, e.g. {example!r}, or None")
    return value


def _flag(name: str, value: Any) -> bool:
    """An argument that is True or False (numpy's bool too)."""
    if isinstance(value, bool):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    raise TypeError(f"{name}: {_shown(value)}: accepted: True or False")


def _memory(value: Any) -> Optional[int]:
    """``memory``, as ``solve --memory`` takes it: bytes (an int), or a str with K, M, G or
    T ("512M", "4G"); None for the default budget, 3/4 of what the system gives."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return _boardsolve._memory_size(value)
        except ValueError as e:
            raise _argument_error("memory", f"memory {value!r}: {e}") from None
    try:
        if isinstance(value, bool):
            raise TypeError
        value = _operator.index(value)
    except TypeError:
        raise TypeError(
            f"memory: {_shown(value)}: accepted: bytes (an int), or a str such as '512M' or "
            "'4G', or None"
        ) from None
    if value < _boardsolve.MIN_MEMORY:
        raise _argument_error(
            "memory",
            f"memory {value}: accepted: bytes, from {_boardsolve.MIN_MEMORY} (8M) up, or a "
            "str such as '512M' or '4G'",
        )
    # More than 2^64 - 1 is more than any system gives: capped as any such request is.
    return min(value, 2**64 - 1)


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

    Attributes: ``status`` ("solved": the answer asked for, "no-solution": proven to have
    none, "limit": a time or node limit stopped the search first, seen in
    ``LimitReached.result`` and in ``compare``'s rows), ``count`` (an int, exact at any
    size, or None), ``optimum``, ``proven``, ``reason`` (why there is no solution, where
    known), ``stopped`` (what stopped the search: "time limit", "node limit", "solution
    limit", "interrupted", "memory bound", "scratch folder", or None), ``solutions`` (each
    a list of ``(row, col)`` squares for the chess kinds, or the kind's own form: a tour's squares in
    order, a tiling's pieces with their cells, a sudoku's rows), ``stats`` (a dict),
    ``kind``, ``strategy``, ``goal``, ``title``. ``to_json()`` gives the report ``solve
    --format json`` writes, ``to_dict()`` the same as a dict; ``str()`` the text report; in
    Jupyter the solutions are drawn. A result pickles, and reads back whole.
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

    def __reduce__(self) -> Any:
        # The extension's answer pickles as its JSON report, its drawings and its text; the
        # attributes are read from it again.
        return (Result, (self._native,))

    @property
    def solution(self) -> Optional[Any]:
        """The first solution, or None."""
        return self.solutions[0] if self.solutions else None

    def to_json(self) -> str:
        """The report as ``solve --format json`` writes it."""
        return self._native.json

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict: ``to_json()`` read (counts beyond 2^53 as strings, as in
        the JSON)."""
        return _json.loads(self._native.json)

    def svg(self, most: Optional[int] = None) -> Optional[str]:
        """The solutions kept (at most ``most`` of them) drawn in SVG, or None where there
        is nothing to draw (a count keeps no solution; ``most=0``) or the board is too large
        to draw."""
        if most is not None:
            try:
                if isinstance(most, bool):
                    raise TypeError
                most = _operator.index(most)
            except TypeError:
                raise TypeError(
                    f"most: {_shown(most)}: accepted: a whole number (an int), 0 or more, or "
                    "None for every solution kept"
                ) from None
            if most < 0:
                raise ValueError(f"most {most}: accepted: 0 or more, or None")
            # More than the solutions kept draws them all.
            most = min(most, 2**63)
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
    memory: Union[int, str, None] = None,
    set: Optional[Mapping[str, Any]] = None,
    **overrides: Any,
) -> Result:
    """Solve a puzzle, as ``solve FILE`` does with the same flags.

    ``puzzle`` is a path (an os.PathLike, or a one-line str that names an existing file or
    holds no '=') or the TOML text itself. ``goal``, ``strategy``, ``threads`` (default:
    every core), ``time_limit`` (seconds), ``unique``, ``limit`` (solutions kept for goal
    all, the count staying exact; with goal count, where the count stops),
    ``node_limit`` and ``memory`` (bytes, or "512M", "4G"; default 3/4 of what the system
    gives) are the flags of the same names. ``size``, ``width`` and ``height`` resize the
    board. Any other keyword sets a key of the file, ``__`` standing for '.':
    ``rules__count=5`` is ``--set rules.count=5``; ``set={"rules.count": 5}`` does the same
    with dotted keys.

    Raises PuzzleError (bad file, override or argument value, with file, line, column and
    key; a file too large for the memory budget), StrategyError (also where the search
    would pass the memory budget), LimitReached (a time or node limit: its ``result`` holds
    the answer so far), TypeError (an argument of the wrong type), OSError (a file that
    cannot be opened) and KeyboardInterrupt (Ctrl-C, which stops the search).
    """
    text, path, name, knuth = _read(puzzle, input)
    sets = _sets(overrides, set, _SOLVE_ARGUMENTS)
    native = _boardsolve.solve(
        text,
        path,
        name,
        knuth,
        sets,
        size=_whole("size", size, 1),
        width=_whole("width", width, 1),
        height=_whole("height", height, 1),
        goal=_text("goal", goal, "count"),
        strategy=_text("strategy", strategy, "dlx"),
        unique=_flag("unique", unique),
        threads=_whole("threads", threads, 1),
        time_limit=_seconds("time_limit", time_limit),
        limit=_whole("limit", limit),
        node_limit=_whole("node_limit", node_limit, 1),
        memory=_memory(memory),
    )
    return _result(native)


_SOLVE_ARGUMENTS = ("goal", "strategy", "threads", "time_limit", "unique", "limit",
                    "node_limit", "size", "width", "height", "input", "memory", "set")


def strategies(
    puzzle: Optional[Puzzle] = None,
    goal: Optional[str] = None,
    unique: bool = False,
    *,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    input: Optional[str] = None,
    memory: Union[int, str, None] = None,
    set: Optional[Mapping[str, Any]] = None,
    **overrides: Any,
) -> List[Dict[str, Any]]:
    """The strategies, as ``solve strategies`` lists them.

    Without a puzzle: every strategy of every kind, a dict each with ``kind``, ``name``,
    ``about`` and ``parts`` (it takes ``--part``). With a puzzle: every strategy of its
    kind, a dict each with ``name``, ``about``, ``applies`` (bool), ``reason`` (why not, or
    None; a search that would pass the memory budget does not apply), ``parts`` and
    ``auto`` (the one auto picks)."""
    if puzzle is None:
        given = [k for k, v in (("goal", goal), ("size", size), ("width", width),
                                ("height", height), ("input", input), ("memory", memory),
                                ("set", set)) if v is not None]
        given += list(overrides) + (["unique"] if unique else [])
        if given:
            raise TypeError(
                f"strategies: {', '.join(given)} given without a puzzle; accepted: a puzzle "
                "with them, or no arguments for every strategy of every kind"
            )
        return _boardsolve.catalogue()
    text, path, name, knuth = _read(puzzle, input)
    sets = _sets(overrides, set, ("goal", "unique", "size", "width", "height", "input",
                                  "memory", "set"))
    return _boardsolve.strategies(
        text,
        path,
        name,
        knuth,
        sets,
        size=_whole("size", size, 1),
        width=_whole("width", width, 1),
        height=_whole("height", height, 1),
        goal=_text("goal", goal, "count"),
        unique=_flag("unique", unique),
        memory=_memory(memory),
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


def _strategy_names(names: Any) -> Optional[List[str]]:
    """``compare``'s ``strategies``: None, or a non-empty list of strategy names."""
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(
            f"strategies: {_shown(names)}: accepted: a list of strategy names, e.g. "
            "['bitmask', 'dlx'], or None"
        )
    listed = list(names)
    for i, n in enumerate(listed):
        if not isinstance(n, str):
            raise TypeError(
                f"strategies[{i}]: {_shown(n)}: accepted: a strategy name (a str), e.g. 'dlx'"
            )
    if not listed:
        raise ValueError(
            "strategies: an empty list; accepted: strategy names, e.g. ['bitmask', 'dlx'], or "
            "None for every strategy that takes the puzzle"
        )
    return listed


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
    memory: Union[int, str, None] = None,
    set: Optional[Mapping[str, Any]] = None,
    **overrides: Any,
) -> Comparison:
    """Run each strategy that takes the puzzle (or those named: a non-empty list) within
    ``budget`` seconds each, as ``solve compare FILE`` does, and return their answers side
    by side. ``memory`` is as in ``solve``: a strategy named whose search would pass it
    raises StrategyError."""
    names = _strategy_names(strategies)
    text, path, name, knuth = _read(puzzle, input)
    sets = _sets(overrides, set, ("strategies", "goal", "budget", "threads", "unique", "size",
                                  "width", "height", "input", "memory", "set"))
    seconds = _seconds("budget", budget)
    if seconds is None:
        raise TypeError("budget: None: accepted: seconds, an int or a float")
    rows = _boardsolve.compare(
        text,
        path,
        name,
        knuth,
        sets,
        size=_whole("size", size, 1),
        width=_whole("width", width, 1),
        height=_whole("height", height, 1),
        goal=_text("goal", goal, "count"),
        unique=_flag("unique", unique),
        threads=_whole("threads", threads, 1),
        names=names,
        budget=seconds,
        memory=_memory(memory),
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


def _multiplicity(m: Any) -> Optional[Dict[Any, Any]]:
    """``multiplicity``: None, or a mapping of item names to ranges."""
    if m is None:
        return None
    if not isinstance(m, Mapping):
        raise TypeError(
            f"multiplicity: {_shown(m)}: accepted: a dict of primary items to an int n or a "
            "pair (lo, hi), e.g. {'a': 2} or {'a': (1, 3)}, or None"
        )
    return dict(m) or None


def exact_cover(
    items: Iterable[Union[str, int]],
    options: Iterable[Iterable[Union[str, int]]],
    secondary: Iterable[Union[str, int]] = (),
    multiplicity: Optional[Mapping[Union[str, int], Union[int, "tuple[int, int]"]]] = None,
    *,
    memory: Union[int, str, None] = None,
) -> Iterator[List[int]]:
    """The solutions of an exact cover, lazily, each a list of option indices.

    ``items`` are the primary items (covered exactly once, or as ``multiplicity`` says:
    ``{item: n}`` or ``{item: (lo, hi)}``), ``secondary`` the items covered at most once,
    and each option a list of item names (a str, or an int read as its decimal name); a
    secondary item may carry a colour as ``"item:colour"`` (options that agree on its
    colour may share it), as in Knuth's format. The search runs ahead of the loop by a few
    solutions and stops when the iterator is dropped or ``close()``d. A search that would
    pass the memory budget (``memory``, as in ``solve``) raises StrategyError here. The
    iterator belongs to the process that made it: in a forked child it raises RuntimeError.
    """
    return _boardsolve.exact_cover(
        items,
        options,
        secondary if secondary is not None else (),
        _multiplicity(multiplicity),
        memory=_memory(memory),
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
    memory: Union[int, str, None] = None,
) -> int:
    """The number of solutions of an exact cover given as lists (see ``exact_cover``),
    counted on ``threads`` (default: every core) within the memory budget (``memory``, as in
    ``solve``: a count that would pass it raises StrategyError before it starts). A time
    limit raises LimitReached with the count so far in its ``result``."""
    threads = _whole("threads", threads, 1)
    time_limit = _seconds("time_limit", time_limit)
    strategy = _text("strategy", strategy, "dxz")
    mem = _memory(memory)
    native = _boardsolve.count_exact_cover(
        items,
        options,
        secondary if secondary is not None else (),
        _multiplicity(multiplicity),
        threads=threads,
        time_limit=time_limit,
        strategy=strategy,
        memory=mem,
    )
    result = _result(native)
    if result.count is None:
        raise BoardsolveError(f"the count ended without a number: {native.summary}")
    return result.count


# A search still running when the interpreter exits (a daemon thread's) is stopped, and the
# exit waits this long for its thread to leave Rust: one ended there by the exiting
# interpreter would abort the process.
_EXIT_WAIT = 5.0
_atexit.register(_boardsolve._stop_searches, _EXIT_WAIT)
if hasattr(_os, "register_at_fork"):
    _os.register_at_fork(after_in_child=_boardsolve._forked)
