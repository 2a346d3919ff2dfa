"""`mnemolint preview --agent wave|claude-code|codex`, pinned: the same index read by each agent's
loader (load.py), and the `AGENTS.md` chain Codex loads for a session in a folder, with its cut."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

COMMENTED = "<!--\n" + "".join(f"old entry {number}\n" for number in range(60)) + "-->\n"
ENTRIES = "".join(f"- [T{number}](t{number}.md) — topic {number}\n" for number in range(150))


@pytest.mark.parametrize("agent", ["wave", "claude-code"])
def test_the_same_index_per_agent(tmp_path: Path, agent: str, snapshot) -> None:
    write_tree(tmp_path, {"memory/MEMORY.md": COMMENTED + ENTRIES})
    done = run_cli("preview", "--agent", agent, "memory", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == snapshot


def codex_repo(root: Path) -> Path:
    write_tree(
        root,
        {
            "AGENTS.md": "Root rules.\n" + "r" * 90 + "\n",
            "pkg/AGENTS.md": "Package: " + "é" * 20 + "\n",
            "pkg/deep/AGENTS.md": "Deep rules.\n",
        },
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_codex_chain_text(tmp_path: Path, snapshot) -> None:
    root = codex_repo(tmp_path)
    done = run_cli("preview", "--agent", "codex", "--codex-max-bytes", "119", "pkg/deep", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "cut after 16 bytes, inside a UTF-8 character (shown as U+FFFD)" in done.stdout
    assert done.stdout == snapshot


def test_codex_chain_json(tmp_path: Path, snapshot) -> None:
    root = codex_repo(tmp_path)
    done = run_cli(
        "preview", "--agent", "codex", "--codex-max-bytes", "119", "--output-format", "json", "pkg", cwd=root
    )
    facts = json.loads(done.stdout)
    assert facts["loaded"].endswith("\ufffd")
    assert facts == snapshot


def test_codex_without_agents_md(tmp_path: Path) -> None:
    done = run_cli("preview", "--agent", "codex", ".", cwd=tmp_path)
    assert done.returncode == 0 and "Codex loads no project doc there" in done.stdout
    assert run_cli("preview", "--agent", "codex", "missing", cwd=tmp_path).returncode == 2
