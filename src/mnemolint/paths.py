"""Path facts every stage needs, in one place: containment, and walking up towards the root."""

from __future__ import annotations

import os
from collections.abc import Iterator


def inside(path: str, root: str) -> bool:
    """Whether absolute `path` is `root` or lies below it (by name: resolve links first if they matter)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def upwards(directory: str) -> Iterator[str]:
    """`directory`, then each parent up to the file system's root."""
    current = directory
    while True:
        yield current
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent
