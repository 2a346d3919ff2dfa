"""The one writer: lock, temporary file, fsync, rename; never through a link, never over a change.

Real files and real processes throughout; `os.replace` and friends are made to fail (monkeypatch)
only to prove what a crash or a refused write leaves behind: the original, byte for byte, and no
lock or temporary file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint.cli import main
from mnemolint.fix import writer

MEM = ".claude/projects/p/memory"
INDEX = f"{MEM}/MEMORY.md"
TOPIC = "---\nname: Build\ndescription: how to build\ntype: project\n---\nBody.\n"
BROKEN = "# Memory\n- [gone](gone.md)\n- [Build](build.md) — how to build\n"


def leftovers(directory: Path) -> list[str]:
    """Lock and temporary files anywhere below `directory`."""
    return sorted(p.name for p in directory.rglob("*") if p.name.endswith((".lock", ".tmp")))


def memory(tmp_path: Path, index: str | None = BROKEN) -> Path:
    files = {f"{MEM}/build.md": TOPIC} | ({INDEX: index} if index is not None else {})
    root = write_tree(tmp_path / "repo", files)
    (root / MEM).mkdir(parents=True, exist_ok=True)
    return root


# --- publish ---------------------------------------------------------------------------------------


def test_publish_replaces_atomically_and_keeps_the_permission_bits(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    target.write_text("old\n")
    target.chmod(0o640)
    writer.publish(str(target), "new ✓\n", b"old\n", str(tmp_path))
    assert target.read_bytes() == "new ✓\n".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_publish_creates_a_new_file_with_the_default_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        writer.publish(str(tmp_path / "MEMORY.md"), "- [A](a.md)\n", None, str(tmp_path))
    finally:
        os.umask(umask)
    assert (tmp_path / "MEMORY.md").read_text() == "- [A](a.md)\n"
    assert stat.S_IMODE((tmp_path / "MEMORY.md").stat().st_mode) == 0o644
    assert leftovers(tmp_path) == []


def test_a_file_changed_since_it_was_read_is_not_clobbered(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    target.write_text("what an agent wrote a moment ago\n")
    with pytest.raises(writer.Changed):
        writer.publish(str(target), "fixed\n", b"what was read\n", str(tmp_path))
    assert target.read_text() == "what an agent wrote a moment ago\n"
    assert leftovers(tmp_path) == []


def test_creating_never_replaces_a_file_that_appeared_meanwhile(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    target.write_text("written by the agent\n")
    with pytest.raises(writer.Changed):
        writer.publish(str(target), "generated\n", None, str(tmp_path))
    assert target.read_text() == "written by the agent\n"
    assert leftovers(tmp_path) == []


def test_without_hard_links_a_new_file_is_still_published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    writer.publish(str(tmp_path / "MEMORY.md"), "generated\n", None, str(tmp_path))
    assert (tmp_path / "MEMORY.md").read_text() == "generated\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("age", [0, 7 * 86_400], ids=["fresh", "a-week-old"])
def test_an_existing_lock_is_never_waited_for_nor_taken_over(tmp_path: Path, age: int) -> None:
    target, lock = tmp_path / "MEMORY.md", tmp_path / "MEMORY.md.lock"
    target.write_text("old\n")
    lock.write_text("4242\n")
    os.utime(lock, (lock.stat().st_mtime - age,) * 2)
    before = lock.stat()
    with pytest.raises(writer.NotWritten, match=r"`MEMORY.md.lock` exists: another mnemolint is writing this file"):
        writer.publish(str(target), "new\n", b"old\n", str(tmp_path))
    assert target.read_text() == "old\n"
    assert lock.read_text() == "4242\n" and lock.stat().st_mtime == before.st_mtime
    assert leftovers(tmp_path) == ["MEMORY.md.lock"]


# --- crash safety ----------------------------------------------------------------------------------


@pytest.mark.parametrize("failing", ["replace", "fsync", "link"])
@pytest.mark.parametrize(
    "error", [OSError(errno.EIO, "Input/output error"), KeyboardInterrupt()], ids=["eio", "ctrl-c"]
)
def test_a_write_that_fails_midway_leaves_the_original_and_no_leftovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str, error: BaseException
) -> None:
    target = tmp_path / "MEMORY.md"
    existed = failing != "link"  # a new file is published with os.link
    if existed:
        target.write_bytes(b"original \xe2\x9c\x93\r\n")

    def fail(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(os, failing, fail)
    expected_error = writer.NotWritten if isinstance(error, OSError) else KeyboardInterrupt
    with pytest.raises(expected_error):
        writer.publish(
            str(target), "half of a new file", b"original \xe2\x9c\x93\r\n" if existed else None, str(tmp_path)
        )
    monkeypatch.undo()
    assert target.read_bytes() == b"original \xe2\x9c\x93\r\n" if existed else not target.exists()
    assert leftovers(tmp_path) == []


def test_a_failing_rename_under_check_fix_is_a_finding_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The root-proof permission test: the rename is refused as a read-only file system would."""
    root = memory(tmp_path)
    before = (root / INDEX).read_bytes()

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", refused)
    monkeypatch.chdir(root)
    assert main(["check", "--fix", "."]) == 1
    out = capsys.readouterr().out
    assert f"{INDEX}: MEM104 Not fixed: cannot write MEMORY.md: Permission denied." in out
    assert "0 fixed, 2 remaining." in out
    assert (root / INDEX).read_bytes() == before
    assert leftovers(root) == []


# --- read-only and permission denied, for real -------------------------------------------------------


@contextlib.contextmanager
def unwritable(directory: Path) -> Iterator[None]:
    """Make `directory` refuse writes for real: chmod for a normal user; for root, whom chmod does not
    stop, a read-only bind mount of the directory over itself."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        try:
            yield
        finally:
            directory.chmod(0o755)
        return
    if shutil.which("mount") is None:
        pytest.skip("running as root, where chmod does not stop writes, and there is no `mount` here")
    bind = subprocess.run(["mount", "--bind", directory, directory], capture_output=True)
    if bind.returncode != 0:
        pytest.skip("running as root, where chmod does not stop writes, and no bind mount is allowed here")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", directory], capture_output=True).returncode != 0:
            pytest.skip("running as root, where chmod does not stop writes, and no read-only remount is allowed")
        yield
    finally:
        subprocess.run(["umount", directory], check=True)


@pytest.mark.parametrize("index", [BROKEN, None], ids=["replace", "create"])
def test_a_read_only_memory_dir_is_a_finding_and_nothing_is_written(tmp_path: Path, index: str | None) -> None:
    root = memory(tmp_path, index)
    before = sorted((p.name, p.read_bytes()) for p in (root / MEM).iterdir())
    with unwritable(root / MEM):
        result = run_cli("check", "--fix", cwd=root)
        after = sorted((p.name, p.read_bytes()) for p in (root / MEM).iterdir())
    assert result.returncode == 1, result.stdout
    assert f"{INDEX}: MEM10{4 if index else 6} Not fixed: cannot write in " in result.stdout
    assert ("Read-only file system" in result.stdout) or ("Permission denied" in result.stdout)
    assert after == before and leftovers(root) == []


# --- symlinks and the root ----------------------------------------------------------------------------


def test_publish_refuses_links_and_paths_outside_the_root(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "MEMORY.md").write_text("real\n")
    root = tmp_path / "root"
    (root / "dir").mkdir(parents=True)
    (root / "MEMORY.md").symlink_to(real / "MEMORY.md")
    (root / "linked").symlink_to(real, target_is_directory=True)
    (tmp_path / "root-link").symlink_to(root, target_is_directory=True)
    cases = [
        (root / "MEMORY.md", str(root), "is a symlink"),
        (root / "linked" / "MEMORY.md", str(root), "is a symlink"),
        (tmp_path / "root-link" / "dir" / "MEMORY.md", str(tmp_path / "root-link"), "is a symlink"),
        (real / "MEMORY.md", str(root), "outside the linted root"),
        (root / ".." / "real" / "MEMORY.md", str(root), "outside the linted root"),
    ]
    for target, base, reason in cases:
        with pytest.raises(writer.NotWritten, match=reason):
            writer.publish(str(target), "clobbered\n", b"real\n", base)
    assert (real / "MEMORY.md").read_text() == "real\n"
    assert not (root / "dir" / "MEMORY.md").exists()
    assert leftovers(tmp_path) == []


def test_a_symlinked_index_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    root = memory(tmp_path, index=None)
    write_tree(root, {"elsewhere/index.txt": BROKEN})
    (root / INDEX).symlink_to(root / "elsewhere/index.txt")
    result = run_cli("check", "--fix", cwd=root)
    assert result.returncode == 1
    assert "Not fixed: " in result.stdout and "MEMORY.md is a symlink, and mnemolint never writes through one" in (
        result.stdout
    )
    assert (root / "elsewhere/index.txt").read_text() == BROKEN and (root / INDEX).is_symlink()
    assert leftovers(root) == []


def test_a_symlinked_memory_dir_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"real/build.md": TOPIC})
    (root / ".claude/projects/p").mkdir(parents=True)
    (root / MEM).symlink_to(root / "real", target_is_directory=True)
    result = run_cli("check", "--fix", cwd=root)
    assert result.returncode == 1
    assert "memory is a symlink, and mnemolint never writes through one" in result.stdout
    assert sorted(p.name for p in (root / "real").iterdir()) == ["build.md"]


def test_a_held_lock_skips_the_file_under_check_fix(tmp_path: Path) -> None:
    root = memory(tmp_path)
    (root / f"{INDEX}.lock").write_text("1\n")
    result = run_cli("check", "--fix", cwd=root)
    assert result.returncode == 1
    assert f"{INDEX}: MEM104 Not fixed: `MEMORY.md.lock` exists: another mnemolint is writing this file" in (
        result.stdout
    )
    assert (root / INDEX).read_text() == BROKEN and (root / f"{INDEX}.lock").read_text() == "1\n"


def test_a_change_made_while_the_new_content_is_written_is_not_clobbered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison with what was read runs again just before the rename."""
    target = tmp_path / "MEMORY.md"
    target.write_text("old\n")
    real_fsync = os.fsync

    def agent_writes_meanwhile(descriptor: int) -> None:
        real_fsync(descriptor)
        if target.read_text() == "old\n":
            with open(target, "a") as handle:
                handle.write("written by an agent\n")

    monkeypatch.setattr(os, "fsync", agent_writes_meanwhile)
    with pytest.raises(writer.Changed):
        writer.publish(str(target), "new\n", b"old\n", str(tmp_path))
    assert target.read_text() == "old\nwritten by an agent\n"
    assert leftovers(tmp_path) == []


def test_a_lock_left_by_a_crashed_run_on_this_host_is_cleared(tmp_path: Path) -> None:
    """The lock names a process of this host that is gone: it and its temporary file are removed."""
    import socket

    finished = subprocess.Popen(["true"])
    finished.wait()
    target, lock = tmp_path / "MEMORY.md", tmp_path / "MEMORY.md.lock"
    target.write_text("old\n")
    lock.write_text(f"{finished.pid}@{socket.gethostname()}\n")
    (tmp_path / f".MEMORY.md.{finished.pid}.abcd.tmp").write_text("half a write")
    writer.publish(str(target), "new\n", b"old\n", str(tmp_path))
    assert target.read_text() == "new\n"
    assert leftovers(tmp_path) == []


def test_a_lock_of_a_live_process_or_another_host_is_respected(tmp_path: Path) -> None:
    import socket

    target, lock = tmp_path / "MEMORY.md", tmp_path / "MEMORY.md.lock"
    target.write_text("old\n")
    for owner in (f"{os.getpid()}@{socket.gethostname()}", "1@another-host"):
        lock.write_text(owner + "\n")
        with pytest.raises(writer.NotWritten, match="exists: another mnemolint is writing this file"):
            writer.publish(str(target), "new\n", b"old\n", str(tmp_path))
        assert target.read_text() == "old\n" and lock.exists()
