"""How an index link resolves does not depend on how the memory dir learned that its file exists:
as a topic of the run, from the dir's listing (the hook's runs, which hold one topic), or by a
`stat` of its own. Each way has its own short cut in `MemoryDir.resolve`; a name that a link
does not read as itself (a fragment, a query, a scheme, a root) must take none of them."""

from __future__ import annotations

from pathlib import Path

from conftest import write_tree

from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.kinds.memory import ABSOLUTE, MISSING, URL, MemoryDir

NAMES = (
    "plain.md",
    "a#b.md",
    "a",
    "q?x.md",
    "x:y.md",
    "web:page.md",
    "~tilde.md",
    "a%20b.md",
    "a b.md",
    "a&amp;b.md",
    "a&b.md",
    "back\\slash.md",
    "sub/deep.md",
    "...",
)
TARGETS = (*NAMES, "./plain.md", "sub//deep.md", "sub/../plain.md", "a%23b.md", "missing.md", "/plain.md", "#a")
MEM = ".claude/projects/p/memory"
TOPIC = "---\nname: t\ndescription: d\ntype: user\n---\nbody\n"


def _resolutions(memdir: MemoryDir) -> dict[str, tuple[str | None, str | None] | None]:
    resolved = {target: memdir.resolve(target) for target in TARGETS}
    return {target: each and (each.rel, each.problem) for target, each in resolved.items()}


def test_a_target_resolves_alike_as_a_topic_from_the_listing_and_by_stat(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"{MEM}/{name}": TOPIC for name in NAMES} | {f"{MEM}/MEMORY.md": "# Memory\n"})
    settings = load_settings(None, str(tmp_path))
    [walked] = discover([str(tmp_path)], settings).containers
    assert isinstance(walked, MemoryDir) and "a#b.md" in walked.topic_by_rel
    listed = MemoryDir(walked.path)
    listed.list_entries()
    looked_up = MemoryDir(walked.path)
    expected = _resolutions(looked_up)
    assert _resolutions(walked) == expected
    assert _resolutions(listed) == expected
    # what a link reads: the name up to a fragment or query, a scheme, a root; else the file itself
    assert expected["a#b.md"] == ("a", None) and expected["q?x.md"][1] == MISSING
    assert expected["web:page.md"] == (None, URL) and expected["~tilde.md"] == (None, ABSOLUTE)
    assert expected["plain.md"] == ("plain.md", None) and expected["./plain.md"] == ("plain.md", None)
    assert expected["a%20b.md"] == ("a%20b.md", None) and expected["#a"] is None
