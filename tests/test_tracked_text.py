"""Every tracked text file is free of unresolved merge-conflict markers (a README once shipped with them)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(rb"^(<<<<<<< |=======$|>>>>>>> )", re.M)


def tracked_files() -> list[Path]:
    """The project's own files, from its git index (a source tree without git: every file under it)."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True, timeout=30
        ).stdout
        return [ROOT / name for name in listed.decode("utf-8").split("\0") if name]
    except (OSError, subprocess.SubprocessError):
        return [path for path in ROOT.rglob("*") if path.is_file() and ".git" not in path.parts]


def test_no_tracked_text_file_holds_a_conflict_marker() -> None:
    found = []
    for path in tracked_files():
        if not path.is_file() or path.suffix in {".png", ".jpg", ".gz"}:
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        for match in MARKER.finditer(data):
            line = data.count(b"\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}")
    assert found == []


def test_the_marker_pattern_finds_a_conflict() -> None:
    sample = b"a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> cache\n"
    assert len(MARKER.findall(sample)) == 3


@pytest.mark.parametrize("line", [b"======= not a marker", b"  <<<<<<< indented", b"========"])
def test_lookalikes_are_not_markers(line: bytes) -> None:
    assert MARKER.search(line) is None
