"""Shared helpers: real files in tmp_path, the real engine, the real CLI in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemolint.config import Settings, load_settings
from mnemolint.engine import lint
from mnemolint.model import Diagnostic


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
    root: Path, paths: list[Path] | None = None, select: list[str] | None = None, **options: object
) -> list[Diagnostic]:
    """Lint like `mnemolint check` would, with the config found from `root`, plus overrides.

    Option keys use underscores (`index_max_lines=3`).
    """
    settings: Settings = load_settings(None, str(root))
    if select is not None:
        settings.select = select
    for key, value in options.items():
        settings.options[key.replace("_", "-")] = value
    return lint([str(p) for p in (paths or [root])], settings).diagnostics


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def only(diagnostics: list[Diagnostic], code: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.code == code]


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m mnemolint ARGS` as a user would; returns the completed process."""
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


@pytest.fixture
def tree(tmp_path: Path):
    """`tree({"memory/MEMORY.md": "...", ...})` writes files under tmp_path and returns it."""

    def make(files: dict[str, str | bytes]) -> Path:
        return write_tree(tmp_path, files)

    return make
