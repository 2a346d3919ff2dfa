"""What users read cites public facts only, never a document they do not have.

Rule pages, the README, the docs and every message or help text state the fact and, where a
source helps, a public one ("Claude Code 2.1.332 loads …", Wave's memory-management spec, a public
repository and file); never the project's internal notes (the seeds, its SPEC, READERS.md).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INTERNAL = re.compile(r"[Ss]eeds? 00\d|SPEC\s+§|READERS\.md")
# Parts of the docs that are mnemolint's own output, generated from src/ (checked with src's strings).
OUTPUT_BLOCK = re.compile(r"^```text\n.*?^```$", re.S | re.M)
OPTION_TABLES = re.compile(
    r"<!-- option tables: generated from the rule families by tests/test_readme.py -->\n.*?"
    r"<!-- end of the option tables -->\n",
    re.S,
)


def _documents() -> list[Path]:
    docs = [p for p in (ROOT / "docs").rglob("*.md") if "example-repo" not in p.parts or p.name == "README.md"]
    return sorted([ROOT / "README.md", *(ROOT / "rules-catalog").glob("*.md"), *docs])


def _hits(text: str) -> list[str]:
    return [text[max(0, m.start() - 40) : m.end() + 20].replace("\n", " ") for m in INTERNAL.finditer(text)]


def _prose(text: str) -> str:
    """The text without the parts generated from src (a page's real-output blocks, option tables)."""
    return OPTION_TABLES.sub("", OUTPUT_BLOCK.sub("", text))


def _generated(text: str) -> str:
    return "\n".join(m.group(0) for pattern in (OUTPUT_BLOCK, OPTION_TABLES) for m in pattern.finditer(text))


def _user_strings(path: Path) -> Iterator[tuple[int, str]]:
    """Every string literal of a module but its docstrings (which only developers read)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


@pytest.mark.parametrize("path", _documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_cite_no_internal_document(path: Path) -> None:
    hits = _hits(_prose(path.read_text(encoding="utf-8")))
    assert hits == [], f"{path.relative_to(ROOT)} cites a document users do not have: {hits}"


def test_messages_cite_no_internal_document() -> None:
    """Messages, help and option texts in src/, and the docs generated from them."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {hit}"
        for path in sorted((ROOT / "src").rglob("*.py"))
        for line, value in _user_strings(path)
        for hit in _hits(value)
    ]
    found += [
        f"{path.relative_to(ROOT)} (generated): {hit}"
        for path in _documents()
        for hit in _hits(_generated(path.read_text(encoding="utf-8")))
    ]
    assert found == [], f"{len(found)} user-facing citations of internal documents, first: {found[:5]}"


def test_the_check_finds_what_it_must() -> None:
    """The pattern and the scopes catch each form seen in the wild, and leave public citations alone."""
    for cited in (
        "(seed 000, scenario 8)",
        "Seed 003, 版本控制策略",
        "SPEC §3 rates it",
        "READERS.md:200",
        "../shared/READERS.md",
    ):
        assert _hits(cited), cited
    for public in (
        "Wave's memory-management spec",
        "Claude Code 2.1.332 loads",
        "claudemd.ts:254-278",
        "seeded",
        "`../shared/**`",
    ):
        assert not _hits(public), public
    page = "Why: SPEC §3.\n\n```text\nMEM101 … (seed 000)\n```\n"
    prose, generated = _hits(_prose(page)), _hits(_generated(page))
    assert len(prose) == 1 and "SPEC §3" in prose[0] and "seed" not in prose[0]
    assert len(generated) == 1 and "(seed 000" in generated[0]
    source = 'def f():\n    """Per SPEC §3."""\n    return "READERS.md:1"\n'
    assert [v for _, v in _user_strings_of(source)] == ["READERS.md:1"]


def _user_strings_of(source: str) -> list[tuple[int, str]]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.py"
        path.write_text(source, encoding="utf-8")
        return list(_user_strings(path))
