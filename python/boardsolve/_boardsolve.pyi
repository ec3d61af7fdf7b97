"""Type stubs of the extension module: the library behind ``boardsolve``'s Python API.
Use the functions of ``boardsolve`` itself: these take the puzzle already sorted into its
text or its path, and their arguments already checked."""

from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

MAX_ENTRIES: int
# The least memory budget, in bytes (8 MiB), as `solve --memory` takes it.
MIN_MEMORY: int

Name = Union[str, int]
Range = Union[int, Tuple[int, int]]

class Solved:
    """One solve's answer: the JSON report, and what draws it. Pickles."""

    json: str
    summary: str
    limited: bool
    def svg(self, most: Optional[int] = ...) -> Optional[str]: ...
    def text(self) -> str: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]: ...

class ExactCover(Iterator[List[int]]):
    """The solutions of an exact cover, found lazily."""

    def __iter__(self) -> "ExactCover": ...
    def __next__(self) -> List[int]: ...
    def close(self) -> None: ...

def solve(
    text: Optional[str],
    path: Optional[str],
    name: str,
    knuth: bool = ...,
    set: Sequence[str] = ...,
    size: Optional[int] = ...,
    width: Optional[int] = ...,
    height: Optional[int] = ...,
    goal: Optional[str] = ...,
    strategy: Optional[str] = ...,
    unique: bool = ...,
    threads: Optional[int] = ...,
    time_limit: Optional[float] = ...,
    limit: Optional[int] = ...,
    node_limit: Optional[int] = ...,
    memory: Optional[int] = ...,
) -> Solved: ...
def strategies(
    text: Optional[str],
    path: Optional[str],
    name: str,
    knuth: bool = ...,
    set: Sequence[str] = ...,
    size: Optional[int] = ...,
    width: Optional[int] = ...,
    height: Optional[int] = ...,
    goal: Optional[str] = ...,
    unique: bool = ...,
    memory: Optional[int] = ...,
) -> List[Dict[str, Any]]: ...
def catalogue() -> List[Dict[str, Any]]: ...
def compare(
    text: Optional[str],
    path: Optional[str],
    name: str,
    knuth: bool = ...,
    set: Sequence[str] = ...,
    size: Optional[int] = ...,
    width: Optional[int] = ...,
    height: Optional[int] = ...,
    goal: Optional[str] = ...,
    unique: bool = ...,
    threads: Optional[int] = ...,
    names: Optional[Sequence[str]] = ...,
    budget: float = ...,
    memory: Optional[int] = ...,
) -> List[Tuple[str, Solved]]: ...
def exact_cover(
    items: Iterable[Name],
    options: Iterable[Iterable[Name]],
    secondary: Optional[Iterable[Name]] = ...,
    multiplicity: Optional[Mapping[Name, Range]] = ...,
    memory: Optional[int] = ...,
) -> ExactCover: ...
def count_exact_cover(
    items: Iterable[Name],
    options: Iterable[Iterable[Name]],
    secondary: Optional[Iterable[Name]] = ...,
    multiplicity: Optional[Mapping[Name, Range]] = ...,
    threads: Optional[int] = ...,
    time_limit: Optional[float] = ...,
    strategy: Optional[str] = ...,
    memory: Optional[int] = ...,
) -> Solved: ...
def main(args: List[bytes], program: Optional[List[bytes]] = ...) -> int: ...
def _restore(state: str) -> Solved: ...
def _memory_size(s: str) -> int: ...
def _stop_searches(wait: float) -> None: ...
def _forked() -> None: ...
