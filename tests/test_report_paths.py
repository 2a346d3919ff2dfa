"""`report.relative_to`: its prefix shortcut answers as `os.path.relpath` does, or steps aside."""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from mnemolint.report import relative_to

PARTS = st.lists(st.sampled_from(["a", "b", ".", "..", "", ".claude", "x y", "..."]), min_size=0, max_size=5)


def by_relpath(path: str, root: str) -> str | None:
    rel = os.path.relpath(path, root)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


@given(PARTS, PARTS)
def test_same_as_relpath(root_parts: list[str], rest: list[str]) -> None:
    root = os.path.normpath("/" + "/".join(root_parts))
    path = root.rstrip("/") + "/" + "/".join(rest) if rest else root
    assert relative_to(path, root) == by_relpath(path, root)
