"""The writer against someone who shares the memory dir (issue 7): swaps, odd files, owners, signals.

Each race of `../shared/repro/repro.sh` is made deterministic through `writer._between_steps`: the
swap an attacker would race for is made exactly between two of the writer's steps, at each step in
turn. Real files, FIFOs, hard links, owners and signals throughout; nothing is mocked.
"""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint.cli import main
from mnemolint.fix import writer

MEM = ".claude/projects/p/memory"
INDEX = f"{MEM}/MEMORY.md"
TOPIC = "---\nname: Build\ndescription: how to build\ntype: project\n---\nBody.\n"
BROKEN = "# Memory\n- [gone](gone.md)\n- [Build](build.md) — how to build\n"
FIXED = "# Memory\n- [Build](build.md) — how to build\n"
STEPS = ["opened", "locked", "read", "created", "written", "verified", "published"]
TEMPORARY_STEPS = ["created", "written", "verified"]  # while a temporary file exists under its name
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (chown); CI runs the suite as root")
OTHER = 12345  # a uid and gid nobody here uses


def leftovers(directory: Path) -> list[str]:
    """Lock and temporary files anywhere below `directory`."""
    return sorted(p.name for p in directory.rglob("*") if p.name.endswith((".lock", ".tmp")))


def snapshot(directory: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry below `directory`: its mode and, for a file, its bytes."""
    entries = sorted(directory.rglob("*"))
    return {str(p.relative_to(directory)): (p.lstat().st_mode, p.read_bytes() if p.is_file() else b"") for p in entries}


def repository(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "repo", {f"{MEM}/build.md": TOPIC, INDEX: BROKEN})


@pytest.fixture
def between() -> Iterator[Callable[[str, Callable[[], None]], None]]:
    """`between(step, action)`: run `action` once, when the writer has just completed `step`."""

    def install(step: str, action: Callable[[], None]) -> None:
        def hook(name: str) -> None:
            if name == step:
                writer._between_steps = None
                action()

        writer._between_steps = hook

    yield install
    writer._between_steps = None


def temporaries(directory: Path) -> list[Path]:
    return sorted(directory.glob(".MEMORY.md.*.tmp"))


# --- chmod: the temporary file swapped for a link to a victim (`repro.sh chmod`) ------------------------


@pytest.mark.parametrize("step", TEMPORARY_STEPS)
def test_a_temporary_file_swapped_for_a_link_changes_nothing_it_points_to(
    tmp_path: Path, between, capsys: pytest.CaptureFixture[str], step: str
) -> None:
    root = repository(tmp_path)
    victim = write_tree(tmp_path / "outside", {"victim": "root's secret\n"}) / "victim"
    victim.chmod(0o600)
    memory = root / MEM

    def swap() -> None:  # what racer.c does: a symlink renamed over the temporary file
        (temporary,) = temporaries(memory)
        (memory / ".evil").symlink_to(victim)
        os.rename(memory / ".evil", temporary)

    between(step, swap)
    assert main(["check", "--fix", str(root)]) == 1
    out = capsys.readouterr().out
    assert "was replaced by someone else while mnemolint wrote MEMORY.md." in out
    assert "0 fixed, " in out
    assert stat.S_IMODE(victim.stat().st_mode) == 0o600 and victim.read_text() == "root's secret\n"
    if step != "verified":  # swapped after the last check, the link is published, and reported as not fixed
        assert not (root / INDEX).is_symlink() and (root / INDEX).read_text() == BROKEN
    assert leftovers(tmp_path) == [] and temporaries(memory) == []


def test_the_temporary_file_gets_its_mode_through_its_descriptor(tmp_path: Path, between) -> None:
    """The mode is set on the file written, before anyone else could open it by name."""
    target = tmp_path / "MEMORY.md"
    target.write_text("old\n")
    target.chmod(0o640)
    modes = []
    between("written", lambda: modes.extend(stat.S_IMODE(p.stat().st_mode) for p in temporaries(tmp_path)))
    writer.publish(str(target), "new\n", b"old\n", str(tmp_path))
    assert modes == [0o640] and stat.S_IMODE(target.stat().st_mode) == 0o640


# --- dirswap: the memory dir swapped for a link out of the root (`repro.sh dirswap`) -------------------


def swap_for_link(directory: Path, target: Path) -> Path:
    """Move `directory` aside and put a link to `target` in its place; returns where it went."""
    aside = directory.with_name(directory.name + ".real")
    directory.rename(aside)
    directory.symlink_to(target, target_is_directory=True)
    return aside


@pytest.mark.parametrize("step", STEPS)
def test_a_memory_dir_swapped_for_a_link_at_any_step_writes_nothing_outside(tmp_path: Path, between, step: str) -> None:
    root = repository(tmp_path)
    outside = write_tree(tmp_path / "outside", {"MEMORY.md": BROKEN})
    before = snapshot(outside)
    moved = []
    between(step, lambda: moved.append(swap_for_link(root / MEM, outside)))
    writer.publish(str(root / INDEX), FIXED, BROKEN.encode(), str(root))
    assert snapshot(outside) == before
    # Every step after the walk works on the directory it opened, wherever it is now.
    assert (moved[0] / "MEMORY.md").read_text() == FIXED
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("component", [MEM, ".claude/projects", "."], ids=["memory-dir", "parent", "root"])
def test_a_link_at_any_component_when_the_write_starts_is_refused(tmp_path: Path, component: str) -> None:
    root = repository(tmp_path)
    copy = write_tree(tmp_path / "copy", {f"{MEM}/MEMORY.md": BROKEN})
    swap_for_link(root / component if component != "." else root, copy / component)
    before = snapshot(copy)
    with pytest.raises(writer.NotWritten, match="is a symlink, and mnemolint never writes through one"):
        writer.publish(str(root / INDEX), FIXED, BROKEN.encode(), str(root))
    assert snapshot(copy) == before and leftovers(tmp_path) == []


# --- lockfifo, lockzero, idxfifo: what is not a regular file is never opened for long -----------------


MAKE: dict[str, Callable[[Path], None]] = {
    "fifo": os.mkfifo,
    "dev-zero": lambda path: path.symlink_to("/dev/zero"),
    "directory": Path.mkdir,
}
KIND = {"fifo": "a FIFO", "dev-zero": "a symlink", "directory": "a directory"}


def dry_run_refuses(root: Path) -> None:
    """`--diff` shows no change for a file `--fix` would refuse."""
    diff = run_cli("check", "--diff", ".", cwd=root)
    assert (diff.returncode, diff.stdout) == (0, ""), diff.stderr
    assert "0 would be fixed" in diff.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_a_lock_that_is_not_a_regular_file_is_a_finding_for_fix_and_diff(tmp_path: Path, kind: str) -> None:
    root = repository(tmp_path)
    lock = root / f"{INDEX}.lock"
    MAKE[kind](lock)
    result = run_cli("check", "--fix", ".", cwd=root)  # run_cli's timeout fails a hang
    assert result.returncode == 1, result.stderr
    assert f"Not fixed: `MEMORY.md.lock` is {KIND[kind]}, not a lock any mnemolint makes: delete it" in result.stdout
    dry_run_refuses(root)
    assert (root / INDEX).read_text() == BROKEN and os.path.lexists(lock)


def test_a_huge_lock_is_read_no_further_than_a_lock_can_be(tmp_path: Path) -> None:
    target, lock = tmp_path / "MEMORY.md", tmp_path / "MEMORY.md.lock"
    target.write_text("old\n")
    with open(lock, "wb") as handle:
        handle.truncate(8 << 30)  # 8 GiB of zeros, sparse: reading it would take seconds and the memory
    started = time.monotonic()
    with pytest.raises(writer.NotWritten, match="exists: another mnemolint is writing this file"):
        writer.publish(str(target), "new\n", b"old\n", str(tmp_path))
    assert time.monotonic() - started < 1
    assert target.read_text() == "old\n" and lock.stat().st_size == 8 << 30


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_target_that_is_not_a_regular_file_is_refused_without_waiting(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "MEMORY.md"
    MAKE[kind](target)
    for expected in (b"old\n", None):
        with pytest.raises(writer.NotWritten, match=f"MEMORY.md is {KIND[kind]}, not a regular file"):
            writer.publish(str(target), "new\n", expected, str(tmp_path))
    assert leftovers(tmp_path) == []


def test_index_write_over_a_fifo_index_neither_hangs_nor_leaves_its_lock(tmp_path: Path) -> None:
    memory = write_tree(tmp_path, {"mem/build.md": TOPIC}) / "mem"
    os.mkfifo(memory / "MEMORY.md")
    result = run_cli("index", str(memory), "--write", cwd=tmp_path)
    assert result.returncode == 1
    assert "MEMORY.md not written: MEMORY.md is a FIFO, not a regular file, and mnemolint writes only those" in (
        result.stderr
    )
    assert sorted(p.name for p in memory.iterdir()) == ["MEMORY.md", "build.md"]


# --- root and ownership -----------------------------------------------------------------------------------


def test_a_file_its_owner_may_not_write_is_never_replaced_not_even_by_root(tmp_path: Path) -> None:
    root = repository(tmp_path)
    (root / INDEX).chmod(0o444)
    result = run_cli("check", "--fix", ".", cwd=root)
    assert result.returncode == 1
    assert f"{INDEX}: MEM104 Not fixed: MEMORY.md is read-only (mode 444: its owner may not write it)." in result.stdout
    dry_run_refuses(root)
    assert (root / INDEX).read_text() == BROKEN and stat.S_IMODE((root / INDEX).stat().st_mode) == 0o444


def test_a_hard_linked_file_is_reported_and_skipped(tmp_path: Path) -> None:
    root = repository(tmp_path)
    os.link(root / INDEX, root / "backup-of-index.md")
    result = run_cli("check", "--fix", ".", cwd=root)
    assert "Not fixed: MEMORY.md has 2 hard links, and replacing it would split them." in result.stdout
    dry_run_refuses(root)
    assert (root / INDEX).read_text() == BROKEN and (root / INDEX).stat().st_nlink == 2
    assert (root / INDEX).samefile(root / "backup-of-index.md")


@ROOT_ONLY
def test_root_keeps_the_owner_group_and_mode_of_a_file_it_fixes(tmp_path: Path) -> None:
    """`repro.sh owner`: the agent's index stays the agent's after a root --fix."""
    root = repository(tmp_path)
    os.chown(root / INDEX, OTHER, OTHER)
    (root / INDEX).chmod(0o600)
    result = run_cli("check", "--fix", ".", cwd=root)
    assert "1 fixed, 0 remaining." in result.stdout
    status = (root / INDEX).stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (OTHER, OTHER, 0o600)
    assert (root / INDEX).read_text() == FIXED


@ROOT_ONLY
def test_a_file_root_creates_belongs_to_the_owner_of_its_directory(tmp_path: Path) -> None:
    os.chown(tmp_path, OTHER, OTHER)
    writer.publish(str(tmp_path / "MEMORY.md"), "- [A](a.md)\n", None, str(tmp_path))
    status = (tmp_path / "MEMORY.md").stat()
    assert (status.st_uid, status.st_gid) == (OTHER, OTHER)


def as_other_user(action: Callable[[], str]) -> str:
    """`action`'s result, run in a child process that became user OTHER (root drops privileges)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to become another user; as that user, the same code refuses")
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        try:
            os.close(reading)
            os.setgroups([])
            os.setgid(OTHER)
            os.setuid(OTHER)
            os.write(writing, action().encode())
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading) as handle:
        said = handle.read()
    os.waitpid(child, 0)
    return said


def test_a_user_never_takes_over_a_file_that_belongs_to_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not root: a file the rename would give to this user (another's, or another group's) is refused."""
    tmp_path.chmod(0o711)
    memory = tmp_path / "mem"
    memory.mkdir()
    memory.chmod(0o777)
    target = memory / "MEMORY.md"
    target.write_text("old\n")
    target.chmod(0o666)  # anyone may write it in place, but the owner stays root
    monkeypatch.chdir(tmp_path)  # the child reaches it by a relative path: it may not search tmp_path's parents

    def attempt() -> str:
        try:
            writer.publish("mem/MEMORY.md", "new\n", b"old\n", "mem")
        except writer.NotWritten as error:
            return str(error)
        return "written"

    said = as_other_user(attempt)
    assert said == (
        "MEMORY.md belongs to another user or group (uid 0, gid 0), which a replaced file keeps: run --fix as its owner"
    )
    assert target.read_text() == "old\n" and target.stat().st_uid == 0 and leftovers(tmp_path) == []


def test_text_that_utf8_cannot_encode_is_refused_and_nothing_is_left(tmp_path: Path) -> None:
    """A name read with surrogate escapes (bytes that are not UTF-8) must not end in a traceback."""
    with pytest.raises(writer.NotWritten, match="holds text UTF-8 cannot encode"):
        writer.publish(str(tmp_path / "MEMORY.md"), "- [B](b\udcff.md)\n", None, str(tmp_path))
    assert list(tmp_path.iterdir()) == []


# --- sigint: an interrupt lands before or after a write, never within it --------------------------------

SIGNALLED = """
import os, signal, sys
from mnemolint.fix import writer
from mnemolint.cli import main

def hook(name):
    if name == sys.argv[1]:
        os.kill(os.getpid(), getattr(signal, sys.argv[2]))

writer._between_steps = hook
sys.exit(main(["check", "--fix", sys.argv[3]]))
"""


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("step", STEPS)
def test_a_signal_at_any_step_waits_for_the_write_and_leaves_nothing(tmp_path: Path, step: str, signame: str) -> None:
    root = repository(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", SIGNALLED, step, signame, str(root)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == (130 if signame == "SIGINT" else -signal.SIGTERM), result.stderr
    assert "Traceback" not in result.stderr
    assert (root / INDEX).read_text() == FIXED and leftovers(tmp_path) == []


def big_tree(root: Path, topics: int) -> None:
    """`repro/mkbig.py`: one memory dir with many topics, and a missing topic per line to fix."""
    memory = root / "p0" / "memory"
    memory.mkdir(parents=True)
    lines = ["# Memory"]
    for number in range(topics):
        body = f"---\nname: T{number}\ndescription: topic {number}\ntype: user\n---\nbody line\n"
        (memory / f"t{number}.md").write_text(body)
        lines.append(f"- [T{number}](t{number}.md) — topic {number}")
        lines.append(f"- [gone{number}](gone{number}.md)")  # half the entries: not an index copied alone
    (memory / "MEMORY.md").write_text("\n".join(lines) + "\n")


def test_ctrl_c_at_any_moment_of_a_long_fix_leaves_no_temporary_file(tmp_path: Path) -> None:
    """`repro.sh sigint`: Ctrl-C sent at a spread of moments across a whole `--fix` of a big tree."""
    big_tree(tmp_path / "g", 1500)
    index = tmp_path / "g" / "p0" / "memory" / "MEMORY.md"
    original = index.read_bytes()
    command = [sys.executable, "-m", "mnemolint", "check", "--fix", "g"]
    started = time.monotonic()
    subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=120)
    duration, fixed = time.monotonic() - started, index.read_bytes()
    assert fixed != original
    for fraction in (0.5, 0.8, 0.9, 0.97):
        index.write_bytes(original)
        process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(duration * fraction)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=120)
        assert index.read_bytes() in (original, fixed) and leftovers(tmp_path) == [], fraction


# --- stale: a dry run shows what --fix does ---------------------------------------------------------------


def dead_pid() -> int:
    finished = subprocess.Popen(["true"])
    finished.wait()
    return finished.pid


def test_a_stale_lock_blocks_neither_fix_nor_the_dry_runs(tmp_path: Path) -> None:
    """`repro.sh stale`: `--diff` says what `--fix` then does; `index --check`, a dry run too, is
    not blocked by the stale lock either."""
    root = repository(tmp_path)
    lock = root / f"{INDEX}.lock"
    lock.write_text(f"{dead_pid()}@{socket.gethostname()}\n")
    diff = run_cli("check", "--diff", ".", cwd=root)
    assert diff.returncode == 1 and "-- [gone](gone.md)\n" in diff.stdout
    assert "1 would be fixed, 0 would remain." in diff.stderr
    check = run_cli("index", "--check", MEM, cwd=root)
    assert check.returncode == 1 and "-- [gone](gone.md)\n" in check.stdout
    assert (root / INDEX).read_text() == BROKEN and lock.exists()  # a dry run clears nothing
    fix = run_cli("check", "--fix", ".", cwd=root)
    assert "1 fixed, 0 remaining." in fix.stdout and (root / INDEX).read_text() == FIXED
    assert leftovers(root) == []


def test_a_live_lock_blocks_fix_and_the_dry_runs_alike(tmp_path: Path) -> None:
    root = repository(tmp_path)
    (root / f"{INDEX}.lock").write_text(f"{os.getpid()}@{socket.gethostname()}\n")
    held = "Not fixed: `MEMORY.md.lock` exists: another mnemolint is writing this file"
    dry_run_refuses(root)
    fix = run_cli("check", "--fix", ".", cwd=root)
    assert held in fix.stdout and "0 fixed" in fix.stdout
    assert (root / INDEX).read_text() == BROKEN
