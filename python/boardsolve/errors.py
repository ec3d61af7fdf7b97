"""The exceptions boardsolve raises."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from . import Result


class BoardsolveError(Exception):
    """Every error of boardsolve's own."""


class PuzzleError(BoardsolveError, ValueError):
    """The puzzle, an override or an argument is not accepted.

    ``file``, ``line`` and ``column`` say where (line 0 where the error has no place in the
    text, as for an override), ``key`` which key; the message says what is accepted.
    """

    def __init__(self, message: str, file: str = "", line: int = 0, column: int = 0,
                 key: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column
        self.key = key

    def __reduce__(self) -> Any:
        # Pickled with its place (an exception pickles its message alone).
        return (type(self), (str(self), self.file, self.line, self.column, self.key))


class StrategyError(BoardsolveError, ValueError):
    """The strategy named does not take the puzzle, or no strategy does; the message says
    why."""


class LimitReached(BoardsolveError):
    """A time or node limit (or Ctrl-C in a sub-call) stopped the search before its answer
    was proven. ``result`` is the answer so far: the best placement found, a count so far
    (a lower bound), with ``result.proven`` false."""

    def __init__(self, message: str, result: Optional["Result"] = None) -> None:
        super().__init__(message)
        self.result = result

    def __reduce__(self) -> Any:
        # Pickled with the answer so far (an exception pickles its message alone).
        return (type(self), (str(self), self.result))
