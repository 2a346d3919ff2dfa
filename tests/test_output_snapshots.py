"""The output formats, pinned on the bundled example repository (docs/example-repo)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

from mnemolint.rules import RULES

# Rules the example cannot show: an unreadable file and a symlink loop (tests/test_hostile.py), a
# link out of the repository, which every copy or package of it would follow (tests/test_rules_links.py),
# and what git tracks — a dated log, an `AGENTS.override.md` — since the example's copy is a fresh
# repository with nothing staged (tests/test_gitignore.py, tests/test_rules_codex.py) and no history
# to date a stale citation by (tests/test_citations.py).
NOT_IN_EXAMPLE = {"NST002", "LNK004", "LNK002", "GIT003", "CDX002", "CIT003"}
# The example does not use Gemini CLI: each GEM rule has its trees in tests/test_gemini_rules.py.
NOT_IN_EXAMPLE |= {f"GEM00{number}" for number in range(1, 9)}


def test_text_output(example: Path, snapshot) -> None:
    result = run_cli("check", "--preview", cwd=example)
    assert result.returncode == 1
    assert result.stderr == ""
    assert result.stdout == snapshot


def test_json_output(example: Path, snapshot) -> None:
    result = run_cli("check", "--preview", "--output-format", "json", cwd=example)
    assert result.returncode == 1
    assert json.loads(result.stdout) == snapshot


def test_statistics_output(example: Path, snapshot) -> None:
    result = run_cli("check", "--preview", "--statistics", cwd=example)
    assert result.stdout == snapshot


def test_example_shows_every_rule(example: Path) -> None:
    result = run_cli("check", "--preview", "--output-format", "json", cwd=example)
    shown = {finding["code"] for finding in json.loads(result.stdout)}
    assert shown == {rule.code for rule in RULES} - NOT_IN_EXAMPLE
