"""`Lazy`: a regular expression compiled on first use, for module-level patterns.

Every rule module is imported on every run, and a pattern compiled at import costs ~0.1 ms
(0.5 ms for a large one) whether or not any file asks for it: in a pre-commit run of three files
most never are. A `Lazy` compiles when a method is first asked for, then keeps the compiled
pattern's methods in its slots, so later calls cost a plain attribute lookup.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split")


class Lazy:
    """Stands for `re.compile(source, flags)`; pass it where a pattern's methods are called, not
    to `re.sub(…)` or to code that checks for a `re.Pattern`."""

    __slots__ = ("source", "flags", "_compiled", *_METHODS)
    # the compiled pattern's methods, as the type checker is to see them (annotations only)
    match: Callable[..., re.Match[str] | None]
    fullmatch: Callable[..., re.Match[str] | None]
    search: Callable[..., re.Match[str] | None]
    finditer: Callable[..., Iterator[re.Match[str]]]
    findall: Callable[..., list[Any]]
    sub: Callable[..., str]
    subn: Callable[..., tuple[str, int]]
    split: Callable[..., list[Any]]

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern | None = None

    def __getattr__(self, name: str) -> Any:  # only for what is not in a slot yet
        if self._compiled is None:
            self._compiled = compiled = re.compile(self.source, self.flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(self._compiled, name)
