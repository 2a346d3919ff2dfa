"""Shared helpers: real files in tmp_path, the real engine, the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from mnemolint.config import Settings, load_settings
from mnemolint.engine import lint
from mnemolint.model import Diagnostic

# Property tests draw the same examples on every run, so CI is reproducible; hunting for new inputs
# is `python tests/fuzz.py N`, or pytest with `--hypothesis-seed=N` for other seeds.
hypothesis_settings.register_profile("mnemolint", derandomize=True)
hypothesis_settings.load_profile("mnemolint")


@pytest.fixture(autouse=True, scope="session")
def _user_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """A run outside any project keeps its cache in the user's cache dir: the suite's own one."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("user-cache"))
    yield
    if previous is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = previous


# The bundled example repository: one defect of each kind, shown by every output format's tests.
PROJECT = Path(__file__).resolve().parent.parent
EXAMPLE = PROJECT / "docs" / "example-repo"


# An audit hook for a child process (`python -c AUDIT_OPENS + …`): `opened` gets each file it opens
# under `sys.argv[1]`, by absolute path. A file opened by its name inside a folder opened before
# (parse/reading.py: the audit event names it alone) is named from the folder opened last; a folder
# is no file read.
AUDIT_OPENS = """
import os, sys
opened = []
root = sys.argv[1]
_folder = [None]
def _audit(name, args):
    if name != "open" or not isinstance(args[0], (str, bytes)):
        return
    path = os.fsdecode(args[0])
    if not os.path.isabs(path):
        path = os.path.join(_folder[0], path) if _folder[0] else path
    elif os.path.isdir(path):
        _folder[0] = path
        return
    if path.startswith(root):
        opened.append(path)
sys.addaudithook(_audit)
"""


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create `files` (relative path → text or bytes) under `root`; return `root`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))
    return root


def run_lint(
    root: Path,
    paths: list[Path] | None = None,
    select: list[str] | None = None,
    preview: bool = True,
    **options: object,
) -> list[Diagnostic]:
    """Lint like `mnemolint check --preview` would, with the config found from `root`, plus
    overrides: a rule's tests exercise it whichever tier it is in (precision.py decides
    that); `preview=False` lints with the default rules only, as a plain `check` does.

    Option keys use underscores (`index_max_lines=3`).
    """
    settings: Settings = load_settings(None, str(root))
    if select is not None:
        settings.select = select
    settings.preview = preview
    for key, value in options.items():
        settings.options[key.replace("_", "-")] = value
    return lint([str(p) for p in (paths or [root])], settings).diagnostics


def preview_settings(root: Path) -> Settings:
    """The settings `check --preview` takes from `root`: every rule, in preview or not."""
    settings: Settings = load_settings(None, str(root))
    settings.preview = True
    return settings


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def only(diagnostics: list[Diagnostic], code: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.code == code]


PREVIEW_COMMANDS = ("check", "hook")  # the commands that take `--preview`


def run_cli(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
    preview: bool = True,
) -> subprocess.CompletedProcess:
    """Run `python -m mnemolint ARGS` as a user would; returns the completed process. A `check` or
    `hook` runs with `--preview` unless the test asks otherwise (`preview=False`, or its own
    `--preview`/`--no-preview`): as `run_lint`, a rule's tests exercise it in either tier."""
    if preview and args and args[0] in PREVIEW_COMMANDS and not {"--preview", "--no-preview"} & set(args):
        args = (args[0], "--preview", *args[1:])  # before any `--` that ends the options
    inherited = {key: value for key, value in os.environ.items() if key != "GITHUB_ACTIONS"}  # picks the format
    full_env = {**inherited, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mnemolint", *args],
        cwd=cwd,
        env=full_env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def on_terminal(*args: str, cwd: Path, env: dict[str, str]) -> str:
    """What `python -m mnemolint ARGS` prints with its stdout on a pseudo-terminal (where colour
    is allowed), run with exactly `env`."""
    import pty

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "mnemolint", *args], cwd=cwd, env=env, stdout=follower, stderr=subprocess.DEVNULL
        )
        os.close(follower)
        output = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
        process.wait(timeout=60)
    finally:
        os.close(leader)
    return output.decode("utf-8")


@pytest.fixture
def tree(tmp_path: Path):
    """`tree({"memory/MEMORY.md": "...", ...})` writes files under tmp_path and returns it."""

    def make(files: dict[str, str | bytes]) -> Path:
        return write_tree(tmp_path, files)

    return make


# A fixed identity and none of the user's git config (hooks, signing), for git and for pre-commit.
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "mnemolint tests",
    "GIT_AUTHOR_EMAIL": "tests@mnemolint.invalid",
    "GIT_COMMITTER_NAME": "mnemolint tests",
    "GIT_COMMITTER_EMAIL": "tests@mnemolint.invalid",
}


def git(*args: str, cwd: Path) -> str:
    """Run git in `cwd` (see GIT_ENV); fails the test if git does."""
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"git {' '.join(args)} failed: {done.stderr}"
    return done.stdout


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A private copy of docs/example-repo as a git repository of its own, so nothing above it (a
    config file, an enclosing repository) changes what any format reports or the paths it shows."""
    target = tmp_path / "example-repo"
    shutil.copytree(EXAMPLE, target, symlinks=True)
    git("init", "-q", cwd=target)
    return target


def summary_of(example: Path, *args: str) -> tuple[int, str]:
    """How many findings `check ARGS` makes in `example`, and its text summary line: the counts the
    other formats' tests compare with, so that a defect added to the example changes one place."""
    result = run_cli("check", *args, cwd=example)
    found = json.loads(run_cli("check", *args, "--output-format", "json", cwd=example).stdout)
    return len(found), result.stdout.splitlines()[-1]


# What building and running the package needs from this checkout (the packaging tests).
SHIPPED = ("pyproject.toml", "README.md", "CHANGELOG.md", "src", "rules-catalog", ".pre-commit-hooks.yaml")


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout as pre-commit would clone it: the working tree's files, committed.

    try-repo on the checkout itself would install only what is committed (plus tracked changes),
    silently testing an older `.pre-commit-hooks.yaml` in a work tree with new files.
    """
    repo = tmp_path_factory.mktemp("hook-repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in SHIPPED:
        source = PROJECT / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=ignore)
        else:
            shutil.copy2(source, repo / name)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "snapshot", cwd=repo)
    return repo


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory, hook_repo: Path) -> Path:
    """The mnemolint wheel, its dependencies (those of the `[server]` extra too, whose README
    install line is tested) and its build backend: the one step that needs the index."""
    wheels = tmp_path_factory.mktemp("wheelhouse")
    package = f"{hook_repo}[server]"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(wheels), package, "hatchling"],
        check=True,
        timeout=600,
    )
    return wheels
