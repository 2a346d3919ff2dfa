"""`report.relative_to`: its prefix shortcut answers as `os.path.relpath` does, or steps aside."""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from mnemolint.report import _relative_out, display_path, relative_to

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


@given(PARTS, PARTS, PARTS)
def test_outside_cwd_same_as_relpath(shared: list[str], cwd_rest: list[str], path_rest: list[str]) -> None:
    """`display_path`'s answer for a path outside the current directory, computed from its
    folder's (memoized), is relpath's for the whole path: beside, above or below, `.` and `..`
    parts, doubled separators, a name equal to one of the current directory's parts."""
    cwd = os.path.normpath("/" + "/".join(shared + cwd_rest))
    path = "/" + "/".join(shared + path_rest)
    assert _relative_out(path, cwd) == os.path.relpath(path, cwd)


def test_display_path_beside_cwd(tmp_path, monkeypatch) -> None:
    here, there = tmp_path / "here", tmp_path / "there" / "memory"
    here.mkdir()
    there.mkdir(parents=True)
    monkeypatch.chdir(here)
    names = ["MEMORY.md", "topic.md", "..", "x"]
    for name in names:
        path = os.path.join(str(there), name)
        assert display_path(path) == os.path.relpath(path, str(here)).replace(os.sep, "/")
    assert display_path(str(tmp_path)) == ".."
    assert display_path(str(here / "a.md")) == "a.md"
