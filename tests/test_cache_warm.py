"""What a warm run leaves undone: an unchanged file is neither read nor has its cached facts
decoded unless a rule of the run needs them, and what it reports is what a run without the cache
reports. The engine runs in this process, so that a test can see which files were read.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import write_tree

from mnemolint.config import load_settings
from mnemolint.engine import lint
from mnemolint.parse import document as document_module

NOW = "2026-12-01"
TOPIC = "---\nname: {name}\ndescription: About {name}\ntype: user\n---\n{body}\n"
CODE = "".join(f"line {n}\n" for n in range(1, 11))  # a 10-line file


def _tree(root: Path) -> Path:
    """A project (a git folder) whose memory dir has a topic citing its code past the end (CIT002)
    and two that cite nothing; every file old enough not to be racy."""
    write_tree(
        root,
        {
            ".mnemolint.toml": "",
            "src/app.py": CODE,
            "memory/MEMORY.md": "# Memory\n\n- [A](a.md) — About a\n- [B](b.md) — About b\n- [C](c.md) — About c\n",
            "memory/a.md": TOPIC.format(name="a", body="The check is at `src/app.py:40`."),
            "memory/b.md": TOPIC.format(name="b", body="Nothing cited here."),
            "memory/c.md": TOPIC.format(name="c", body="Nor here."),
        },
    )
    (root / ".git").mkdir()
    then = time.time() - 60
    for folder, _, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (then, then))
    return root


def _settings(root: Path):
    settings = load_settings(None, str(root))
    settings.options["now"] = NOW
    settings.preview = True
    return settings


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The memory dir's files that were read, and those whose cached facts were decoded, in a run."""
    seen: dict[str, list[str]] = {"read": [], "recalled": []}
    load, recall = document_module.Document._load, document_module.Document.recall

    def loading(self: document_module.Document) -> None:
        if os.path.basename(os.path.dirname(self.path)) == "memory":
            seen["read"].append(os.path.basename(self.path))
        load(self)

    def recalling(self: document_module.Document, facts: tuple | list) -> None:
        if os.path.basename(os.path.dirname(self.path)) == "memory":
            seen["recalled"].append(os.path.basename(self.path))
        recall(self, facts)

    monkeypatch.setattr(document_module.Document, "_load", loading)
    monkeypatch.setattr(document_module.Document, "recall", recalling)
    return seen


def test_the_citation_rules_read_only_the_citing_topic(tmp_path: Path, counted: dict[str, list[str]]) -> None:
    """The CIT rules look for a citation in every memory (`Document.holds`): on a warm run the
    cache answers that without decoding a topic's facts, and only the topic that cites is read."""
    root = _tree(tmp_path)
    settings = _settings(root)
    uncached = [repr(each) for each in lint([str(root)], settings).diagnostics]
    assert any("CIT002" in each for each in uncached)
    assert [repr(each) for each in lint([str(root)], settings, cache=True).diagnostics] == uncached  # cold
    counted["read"].clear()
    counted["recalled"].clear()
    assert [repr(each) for each in lint([str(root)], settings, cache=True).diagnostics] == uncached  # warm
    assert counted["read"] == ["a.md"]  # its lines, for its citation
    assert "b.md" not in counted["recalled"] and "c.md" not in counted["recalled"]


def test_a_citation_added_behind_a_warm_run_is_found(tmp_path: Path) -> None:
    """A topic edited to cite (a new stat key) is read again, and its citation judged."""
    root = _tree(tmp_path)
    settings = _settings(root)
    lint([str(root)], settings, cache=True)
    lint([str(root)], settings, cache=True)
    (root / "memory" / "b.md").write_text(TOPIC.format(name="b", body="Also at `src/app.py:99`."))
    warm = [repr(each) for each in lint([str(root)], settings, cache=True).diagnostics]
    assert warm == [repr(each) for each in lint([str(root)], settings).diagnostics]
    assert sum("CIT002" in each for each in warm) == 2
