"""The catalogue and the code agree, and every page's examples do what the page says.

A page is `rules-catalog/CODE.md`: frontmatter (code, name, severity, fixable, since) and the
sections below. Its examples are fenced blocks whose info string names a file (`file=PATH`);
the bad example's files must make the rule fire and the good example's must not.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import codes, git, run_lint

from mnemolint.catalog import catalog_dir
from mnemolint.parse import markdown
from mnemolint.parse.frontmatter import split_and_parse
from mnemolint.report.text_format import location
from mnemolint.rules import BY_CODE, FAMILY_OF, RULES

SECTIONS = ("## What it finds", "## Why it matters", "## Bad example", "## Good example", "## Fix", "## Options")
CATALOG = Path(catalog_dir() or "rules-catalog")
PAGES = sorted(CATALOG.glob("*.md"))


def _page(code: str) -> str:
    return (CATALOG / f"{code}.md").read_text(encoding="utf-8")


def _meta(text: str) -> dict:
    front = split_and_parse(text.split("\n"), 8)
    assert front.data is not None, "page frontmatter must be a YAML mapping"
    return front.data


def test_every_rule_has_a_page_and_every_page_a_rule() -> None:
    assert {page.stem for page in PAGES} == set(BY_CODE), "rules-catalog/ and the registry disagree"


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_page_metadata_matches_the_rule(rule) -> None:
    meta = _meta(_page(rule.code))
    assert meta == {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity,
        "fixable": rule.fix or False,
        "since": rule.since,
    }


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_page_has_every_section(rule) -> None:
    text = _page(rule.code)
    assert f"# {rule.code} {rule.name}" in text
    positions = [text.find(f"\n{section}\n") for section in SECTIONS]
    assert -1 not in positions, f"missing section(s): {[s for s, p in zip(SECTIONS, positions, strict=True) if p < 0]}"
    assert positions == sorted(positions), "sections out of order"
    for option in rule.options:
        assert f"`{option.name}`" in text, f"option {option.name} is not documented"
    why = text.split("## Why it matters", 1)[1].split("## Bad example", 1)[0].lower()
    cites = FAMILY_OF[rule.code].cites
    assert any(source.lower() in why for source in cites), f"the why section cites none of {cites}"


def _section(text: str, title: str) -> str:
    """The lines under the page's `## title`, up to its next `##` heading (one inside an example's
    fence is the example's, as in the `.ai-memory` templates)."""
    headings = [block for block in markdown.blocks(text) or () if block.kind == markdown.HEADING and block.level == 2]
    lines = text.split("\n")
    for position, heading in enumerate(headings):
        if f"## {heading.content}" == title:
            end = headings[position + 1].start_line - 1 if position + 1 < len(headings) else len(lines)
            return "\n".join(lines[heading.start_line : end])
    raise ValueError(f"no section {title}")


def materialise(section: str, root: Path) -> int:
    """Write the section's `file=` blocks under `root`; return how many were written. A block
    marked `tracked` is added to a git repository made at `root` (GIT003 and CDX002 need what git
    tracks); one with `mtime=DATE` gets that modification time (CIT003 compares them)."""
    written = 0
    tracked: list[str] = []
    for fence in markdown.fences(section):
        attributes = dict((part.split("=", 1) + [""])[:2] for part in fence.info.split()[1:] if part)
        if "file" not in attributes:
            continue
        path = root / attributes["file"]
        path.parent.mkdir(parents=True, exist_ok=True)
        body = fence.content
        if "symlink" in attributes:
            os.symlink(attributes["symlink"], path)
        else:
            if "escapes" in attributes:
                body = body.encode("ascii").decode("unicode_escape")
            path.write_bytes(body.encode(attributes.get("encoding") or "utf-8"))
        if "mtime" in attributes:  # a date (`mtime=2026-01-10`): when the file was last written
            moment = datetime.fromisoformat(attributes["mtime"]).replace(tzinfo=timezone.utc).timestamp()
            os.utime(path, (moment, moment))
        if "tracked" in attributes:
            tracked.append(attributes["file"])
        written += 1
    if tracked:
        git("init", "-q", cwd=root)
        git("add", "-f", "--", *tracked, cwd=root)
    return written


def shown_output(section: str) -> list[str]:
    """The lines of the section's illustration-only ```text block: the output the page promises."""
    for fence in markdown.fences(section):
        info = fence.info.split()
        if info[:1] == ["text"] and not any(part.startswith("file=") for part in info):
            return fence.content.splitlines()
    return []


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_page_shows_the_real_output(rule, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    section = _section(_page(rule.code), "## Bad example")
    expected = shown_output(section)
    assert expected, "the bad example shows its output in a ```text block"
    materialise(section, tmp_path)
    monkeypatch.chdir(tmp_path)
    printed = [f"{location(d)}: {d.code} {d.message}" for d in run_lint(tmp_path, select=[rule.code], preview=True)]
    assert printed == expected


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
@pytest.mark.parametrize("example", ["Bad example", "Good example"])
def test_page_examples(rule, example: str, tmp_path: Path) -> None:
    text = _page(rule.code)
    assert materialise(_section(text, f"## {example}"), tmp_path), f"{example} has no `file=` block"
    found = codes(run_lint(tmp_path, select=[rule.code], preview=True))
    if example == "Bad example":
        assert rule.code in found, f"the bad example of {rule.code} does not fire"
    else:
        assert rule.code not in found, f"the good example of {rule.code} fires"
