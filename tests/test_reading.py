"""Within `parse.reading.folders()` (the per-file loop of a run) a file is opened inside its folder,
asked where it is once: it refuses what a read by path refuses (a dangerous link at the file's name
or above it, a FIFO, a folder), reads the same bytes, and leaves no descriptor open."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from conftest import write_tree

from mnemolint.parse import reading
from mnemolint.parse.reading import folders, open_regular


def read(path: Path) -> bytes | str:
    opened = open_regular(str(path))
    if isinstance(opened, str):
        return opened
    fd, info = opened
    try:
        return reading.read_up_to(fd, info.st_size + 1)
    finally:
        os.close(fd)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Plain files, a harmless link, a link to a `.env`, a linked folder into a fake `~/.ssh`, a
    linked folder to a plain one, a FIFO and a folder standing where a file is named."""
    root = write_tree(tmp_path / "r", {"a.md": "alpha\n", "b.md": "beta\n", ".env": "K=v\n", "sub/c.md": "gamma\n"})
    write_tree(tmp_path / "home", {".ssh/config": "Host x\n"})
    (root / "same.md").symlink_to("a.md")
    (root / "env.md").symlink_to(".env")
    (root / "ssh").symlink_to(tmp_path / "home" / ".ssh")
    (root / "elsewhere").symlink_to(root / "sub")
    os.mkfifo(root / "fifo.md")
    (root / "folder.md").mkdir()
    return root


NAMES = ("a.md", "b.md", "same.md", "env.md", "ssh/config", "elsewhere/c.md", "sub/c.md", "fifo.md", "folder.md")
NAMES += ("gone.md",)


def outcome(path: Path) -> bytes | str:
    try:
        return read(path)
    except OSError as error:
        return f"OSError {error.errno}"


def test_a_file_read_in_its_folder_is_judged_and_read_as_by_its_path(tree: Path) -> None:
    by_path = {name: outcome(tree / name) for name in NAMES}
    assert by_path["a.md"] == by_path["same.md"] == b"alpha\n"
    assert by_path["elsewhere/c.md"] == b"gamma\n"
    assert "never reads through it" in str(by_path["env.md"]) and "never reads through it" in str(by_path["ssh/config"])
    assert "not a regular file" in str(by_path["fifo.md"]) and "not a regular file" in str(by_path["folder.md"])
    with folders():
        for order in (NAMES, tuple(reversed(NAMES)), NAMES):  # the held folder changing back and forth
            assert {name: outcome(tree / name) for name in order} == by_path


def test_the_folder_is_asked_once_and_closed_on_the_way_out(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    where = reading._where
    monkeypatch.setattr(reading, "_where", lambda fd: asked.append(fd) or where(fd))
    before = set(os.listdir("/proc/self/fd"))
    with folders():
        with folders():  # nested: the outer one holds the folder
            assert read(tree / "a.md") == b"alpha\n"
        assert read(tree / "b.md") == b"beta\n"
        assert len(asked) == 1  # the folder, not each file
    assert set(os.listdir("/proc/self/fd")) == before
    assert reading._here.folder is None
    read(tree / "a.md")
    assert len(asked) == 2  # outside: each file is asked where it is


def test_another_thread_opens_by_path(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A descriptor is the process's: a thread that did not open it never relies on it."""
    inside: list[str] = []
    in_folder = reading._in_folder
    monkeypatch.setattr(reading, "_in_folder", lambda held, path: inside.append(path) or in_folder(held, path))
    found: list[bytes | str] = []
    with folders():
        thread = threading.Thread(target=lambda: found.append(read(tree / "a.md")))
        thread.start()
        thread.join()
    assert found == [b"alpha\n"] and inside == []


def test_threads_each_hold_their_own_folder(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads in `folders()` at once, reading in turn in two folders: each reads its own
    files inside its own folder, asked where it is once, and each one's folder is closed when it
    leaves."""
    asked: list[int] = []
    where = reading._where
    monkeypatch.setattr(reading, "_where", lambda fd: asked.append(fd) or where(fd))
    before = set(os.listdir("/proc/self/fd"))
    turns = threading.Barrier(2)
    found: dict[str, list[bytes | str]] = {"top": [], "sub": []}

    def reader(which: str, names: tuple[str, ...]) -> None:
        with folders():
            for name in names * 3:
                turns.wait()  # the other thread has just read in its folder
                found[which].append(read(tree / name))

    threads = [
        threading.Thread(target=reader, args=("top", ("a.md", "b.md"))),
        threading.Thread(target=reader, args=("sub", ("sub/c.md", "sub/c.md"))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == {"top": [b"alpha\n", b"beta\n"] * 3, "sub": [b"gamma\n"] * 6}
    assert len(asked) == 2  # each thread's folder once, no file by path
    assert set(os.listdir("/proc/self/fd")) == before


def test_a_folder_swapped_for_a_dangerous_link_while_held_is_not_followed(tree: Path, tmp_path: Path) -> None:
    """The held folder is the one that was asked: a link put in its place later leads nowhere."""
    with folders():
        assert read(tree / "sub" / "c.md") == b"gamma\n"
        os.rename(tree / "sub", tmp_path / "moved")
        (tree / "sub").symlink_to(tmp_path / "home" / ".ssh")
        (tmp_path / "home" / ".ssh" / "c.md").write_text("SECRET\n")
        assert read(tree / "sub" / "c.md") != b"SECRET\n"
    assert "never reads through it" in str(read(tree / "sub" / "c.md"))
