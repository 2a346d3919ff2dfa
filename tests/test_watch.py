"""`check --watch` as a user runs it: a real process, a real file changed under it, Ctrl-C (SIGINT)."""

from __future__ import annotations

import os
import pty
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib
from conftest import PROJECT, git, write_tree

from mnemolint.commands.check_watch import CLEAR

CLEAN = {
    "memory/MEMORY.md": "# Memory\n\n- [A](a.md) — About a\n",
    "memory/a.md": "---\nname: a\ndescription: About a\ntype: user\n---\nbody\n",
}
WATCHING = "Watching for file changes."


class Watcher:
    """`python -m mnemolint check --watch` in `root`, its stderr read line by line as it comes."""

    def __init__(self, root: Path, *args: str, stdout: int | None = subprocess.PIPE) -> None:
        env = {key: value for key, value in os.environ.items() if key != "GITHUB_ACTIONS"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mnemolint", "check", "--watch", "--preview", *args],
            cwd=root,
            env={**env, "NO_COLOR": "1"},
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line)

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> None:
        """Until `text` has been on stderr `count` times in all."""
        deadline = time.monotonic() + timeout
        while sum(text in line for line in self.seen) < count:
            try:
                self.seen.append(self.lines.get(timeout=max(deadline - time.monotonic(), 0.01)))
            except queue.Empty:
                self.process.kill()
                pytest.fail(f"no {text!r} (x{count}) within {timeout} s; stderr so far: {''.join(self.seen)}")

    def interrupt(self) -> tuple[int, str, str]:
        """Ctrl-C: SIGINT, as a terminal sends it; the exit code, stdout and the rest of stderr."""
        self.process.send_signal(signal.SIGINT)
        stdout, _ = self.process.communicate(timeout=60)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return self.process.returncode, stdout or "", "".join(self.seen)


def test_a_change_lints_again_and_ctrl_c_ends_it_quietly(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLEAN)
    git("init", "-q", cwd=root)  # a project: the cache is kept inside it, where the watch is
    watcher = Watcher(root)
    watcher.wait_for(WATCHING)
    with (root / "memory" / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write("- [Gone](gone.md) — a deleted topic\n")
    watcher.wait_for("File change detected...")
    watcher.wait_for(WATCHING, count=2)
    assert (root / ".mnemolint_cache").is_dir()
    time.sleep(4)  # past watchfiles' debounce: the second run wrote the cache, which is no change
    code, stdout, stderr = watcher.interrupt()
    assert stderr.count(WATCHING) == 2
    assert code == 130
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    assert stdout.count("All checks passed") == 1  # the first run
    assert "memory/MEMORY.md:4:3: MEM104" in stdout  # the second, after the change
    assert CLEAR not in stdout  # a pipe is never sent terminal codes


def test_a_config_error_is_said_and_the_watch_goes_on(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLEAN)
    watcher = Watcher(root)
    watcher.wait_for(WATCHING)
    (root / "mnemolint.toml").write_text("select = \n", encoding="utf-8")  # half-written
    watcher.wait_for("mnemolint: error: invalid TOML")
    watcher.wait_for(WATCHING, count=2)
    (root / "mnemolint.toml").write_text('select = ["MEM1"]\n', encoding="utf-8")
    watcher.wait_for(WATCHING, count=3)
    code, stdout, stderr = watcher.interrupt()
    assert code == 130 and "Traceback" not in stderr
    assert stdout.count("All checks passed") == 2


def test_on_a_terminal_the_screen_is_cleared_before_each_run(tmp_path: Path) -> None:
    root = write_tree(tmp_path, CLEAN)
    leader, follower = pty.openpty()
    watcher = Watcher(root, stdout=follower)
    os.close(follower)
    watcher.wait_for(WATCHING)
    (root / "memory" / "a.md").write_text("no frontmatter now\n", encoding="utf-8")
    watcher.wait_for(WATCHING, count=2)
    code, _, stderr = watcher.interrupt()
    shown = b""
    while select.select([leader], [], [], 0.5)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the process is gone: the terminal closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    text = shown.decode("utf-8", "replace")
    assert code == 130 and "Traceback" not in stderr
    assert text.count(CLEAR) == 2
    assert text.index(CLEAR) < text.index("All checks passed") < text.rindex(CLEAR) < text.index("memory/a.md")


def test_without_watchfiles_it_says_which_extra_to_install(tmp_path: Path) -> None:
    """watchfiles is an optional extra: missing, --watch is a usage error naming it, not a traceback."""
    root = write_tree(tmp_path, CLEAN)
    script = (
        "import sys\nsys.modules['watchfiles'] = None\nfrom mnemolint.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    )
    process = subprocess.run(
        [sys.executable, "-c", script, "check", "--watch"], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert process.returncode == 2
    assert "pip install 'mnemolint[watch]'" in process.stderr and "Traceback" not in process.stderr


@pytest.mark.parametrize("other", ["--show-files", "--diff"])
def test_watch_refuses_what_lints_nothing_again(tmp_path: Path, other: str) -> None:
    root = write_tree(tmp_path, CLEAN)
    process = subprocess.run(
        [sys.executable, "-m", "mnemolint", "check", "--watch", other], cwd=root, capture_output=True, text=True
    )
    assert process.returncode == 2 and "--watch" in process.stderr


def test_watchfiles_is_an_extra_not_a_dependency() -> None:
    """The pre-commit hook and CI install the linter without it; `mnemolint[watch]` brings it."""
    text = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    project = tomllib.loads(text)["project"]
    assert not any(need.startswith("watchfiles") for need in project["dependencies"])
    assert any(need.startswith("watchfiles") for need in project["optional-dependencies"]["watch"])
