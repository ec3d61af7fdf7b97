"""Type stubs of the extension module: the library behind ``boardsolve``'s Python API.
Use the functions of ``boardsolve`` itself; these take the puzzle already read."""

from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

MAX_ENTRIES: int

Name = Union[str, int]
Range = Union[int, Tuple[int, int]]

class Solved:
    """One solve's answer: the JSON report, and what draws it."""

    json: str
    summary: str
    limited: bool
    def svg(self) -> Optional[str]: ...
    def text(self) -> str: ...

class ExactCover(Iterator[List[int]]):
    """The solutions of an exact cover, found lazily."""

    def __iter__(self) -> "ExactCover": ...
    def __next__(self) -> List[int]: ...
    def close(self) -> None: ...

def solve(
    text: str,
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
) -> Solved: ...
def strategies(
    text: str,
    name: str,
    knuth: bool = ...,
    set: Sequence[str] = ...,
    size: Optional[int] = ...,
    width: Optional[int] = ...,
    height: Optional[int] = ...,
    goal: Optional[str] = ...,
    unique: bool = ...,
) -> List[Dict[str, Any]]: ...
def compare(
    text: str,
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
) -> List[Tuple[str, Solved]]: ...
def exact_cover(
    items: Iterable[Name],
    options: Iterable[Iterable[Name]],
    secondary: Optional[Iterable[Name]] = ...,
    multiplicity: Optional[Mapping[Name, Range]] = ...,
) -> ExactCover: ...
def count_exact_cover(
    items: Iterable[Name],
    options: Iterable[Iterable[Name]],
    secondary: Optional[Iterable[Name]] = ...,
    multiplicity: Optional[Mapping[Name, Range]] = ...,
    threads: Optional[int] = ...,
    time_limit: Optional[float] = ...,
    strategy: Optional[str] = ...,
) -> Solved: ...
def main(args: List[bytes], program: Optional[List[bytes]] = ...) -> int: ...
