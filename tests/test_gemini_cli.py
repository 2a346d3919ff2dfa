"""Gemini CLI's reader profile (agents/gemini_cli.py): its file walk, its names setting, its import
processor, its private memory folder. The recorded fixtures (tests/oracle/gemini-cli/) prove the
same against the client; these pin each fact on small real trees and keep every scan bounded."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from conftest import write_tree
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemolint.agents import gemini_cli as gemini

CODE = re.compile(r"(`+)([\s\S]*?)\1")  # the client's own expression (Python's engine agrees with JavaScript's)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return None


def expanded(path: Path) -> gemini.Expanded:
    return gemini.expand(str(path), path.read_text(encoding="utf-8"), read)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="``ab \n@./x", max_size=40))
def test_code_regions_are_the_clients_expression(text: str) -> None:
    assert gemini.code_regions(text) == [match.span() for match in CODE.finditer(text)]


def test_imports_are_found_as_the_client_finds_them() -> None:
    text = "@a.md x@b.md\n@1x @ @/abs `@c` \t@Z.md, mail me@example.com @../up.md"
    assert [path for _, _, path in gemini.find_imports(text)] == ["a.md", "/abs", "Z.md,", "../up.md"]


def test_expansion_writes_what_the_processor_writes(tmp_path: Path, home: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {
            ".git/HEAD": "",
            "GEMINI.md": "top @a.md\n@missing.md\n`@a.md`\n@../out.md\n@https://example.com/x\n@d\n",
            "a.md": "A @b.md\n",
            "b.md": "B @a.md\n",
            "d/x": "",
        },
    )
    (tmp_path / "out.md").write_text("out\n")
    result = expanded(root / "GEMINI.md")
    missing = root / "missing.md"
    assert result.text == (
        "top <!-- Imported from: a.md -->\nA <!-- Imported from: b.md -->\nB <!-- File already processed: a.md -->\n"
        "\n<!-- End of import from: b.md -->\n\n<!-- End of import from: a.md -->\n"
        f"<!-- Import failed: missing.md - ENOENT: no such file or directory, access '{missing}' -->\n"
        "`@a.md`\n<!-- Import failed: ../out.md - Path traversal attempt -->\n"
        "<!-- Import failed: https://example.com/x - Path traversal attempt -->\n"
        "<!-- Import failed: d - EISDIR: illegal operation on a directory, read -->\n"
    )
    outcomes = [(i.written, i.outcome, i.line, i.depth) for i in result.imports]
    assert outcomes == [
        ("a.md", gemini.IMPORTED, 1, 1),
        ("b.md", gemini.IMPORTED, 1, 2),
        ("a.md", gemini.REPEATED, 1, 3),
        ("missing.md", gemini.FAILED, 2, 1),
        ("../out.md", gemini.OUTSIDE, 4, 1),
        ("https://example.com/x", gemini.OUTSIDE, 5, 1),
        ("d", gemini.FAILED, 6, 1),
    ]
    assert result.complete and result.sent == result.text.strip()


def test_five_levels_then_the_text_stays(tmp_path: Path, home: Path) -> None:
    files = {".git/HEAD": "", "GEMINI.md": "@d1.md\n"}
    files.update({f"d{i}.md": f"level {i} @d{i + 1}.md\n" for i in range(1, 8)})
    root = write_tree(tmp_path / "p", files)
    result = expanded(root / "GEMINI.md")
    assert "level 5 @d6.md" in result.text and "level 6" not in result.text
    too_deep = [(i.written, i.depth) for i in result.imports if i.outcome == gemini.UNEXPANDED]
    assert too_deep == [("d6.md", 6)]


def test_without_git_imports_stay_below_the_files_folder(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "p", {"A/GEMINI.md": "@../up.md @x.md\n", "up.md": "up", "A/x.md": "x"})
    assert [i.outcome for i in expanded(root / "A" / "GEMINI.md").imports] == [gemini.OUTSIDE, gemini.IMPORTED]


def test_a_link_out_of_the_project_is_refused(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "p", {".git/HEAD": "", "GEMINI.md": "@inside.md\n"})
    (tmp_path / "secret.md").write_text("no")
    (root / "inside.md").symlink_to(tmp_path / "secret.md")
    assert [i.outcome for i in expanded(root / "GEMINI.md").imports] == [gemini.OUTSIDE]


def test_names_setting(tmp_path: Path, home: Path) -> None:
    session = tmp_path / "p"
    assert gemini.context_names(str(session)) == ["GEMINI.md"]
    write_tree(home, {".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}'})
    assert gemini.context_names(str(session)) == ["AGENTS.md", "GEMINI.md"]
    write_tree(session, {".gemini/settings.json": '// mine\n{"context": {"fileName": [" ZED.md ", "", "GEMINI.md"]}}'})
    assert gemini.context_names(str(session)) == ["ZED.md", "GEMINI.md"]
    assert gemini.names_setting(str(session)) == (
        str(session / ".gemini" / "settings.json"),
        [" ZED.md ", "", "GEMINI.md"],
    )
    write_tree(session, {".gemini/settings.json": "[1]"})  # not an object: none of it counts
    assert gemini.context_names(str(session)) == ["AGENTS.md", "GEMINI.md"]


def test_a_settings_link_to_a_credential_is_never_read(tmp_path: Path, home: Path) -> None:
    secret = write_tree(home, {".ssh/config": '{"context": {"fileName": "LEAKED.md"}}'}) / ".ssh" / "config"
    session = tmp_path / "p"
    (session / ".gemini").mkdir(parents=True)
    (session / ".gemini" / "settings.json").symlink_to(secret)
    assert gemini.context_names(str(session)) == ["GEMINI.md"]


def test_walk_is_sorted_and_stops_at_the_git_root(tmp_path: Path, home: Path) -> None:
    root = write_tree(
        tmp_path / "above" / "p",
        {".git/HEAD": "", "GEMINI.md": "r", "A/GEMINI.md": "a", "A/b/GEMINI.md": "b", "Z/GEMINI.md": "z"},
    )
    (tmp_path / "above" / "GEMINI.md").write_text("above")
    files = gemini.project_files(str(root / "A" / "b"), ["GEMINI.md"])
    assert [os.path.relpath(f, root) for f in files] == ["A/GEMINI.md", "A/b/GEMINI.md", "GEMINI.md"]
    (root / ".git" / "HEAD").unlink()
    (root / ".git").rmdir()
    assert gemini.project_files(str(root / "A"), ["GEMINI.md"]) == [str(root / "A" / "GEMINI.md")]


def test_a_second_name_for_one_file_is_sent_once(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "p", {".git/HEAD": "", "AGENTS.md": "x"})
    (root / "GEMINI.md").symlink_to("AGENTS.md")
    assert gemini.project_files(str(root), ["AGENTS.md", "GEMINI.md"]) == [str(root / "AGENTS.md")]


def test_a_touch_adds_the_folders_between(tmp_path: Path, home: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {".git/HEAD": "", "GEMINI.md": "r", "sub/GEMINI.md": "s", "sub/deep/GEMINI.md": "d", "sub/deep/x.txt": ""},
    )
    start = gemini.project_files(str(root), ["GEMINI.md"])
    touched = gemini.touched_files(str(root / "sub" / "deep" / "x.txt"), str(root), ["GEMINI.md"], start)
    assert touched == [str(root / "sub" / "GEMINI.md"), str(root / "sub" / "deep" / "GEMINI.md")]
    assert gemini.touched_files(str(tmp_path / "elsewhere.txt"), str(root), ["GEMINI.md"], start) == []


def test_global_files_in_name_order(tmp_path: Path, home: Path) -> None:
    write_tree(home, {".gemini/GEMINI.md": "g", ".gemini/ZED.md": "z"})
    assert gemini.global_files(["ZED.md", "NOPE.md", "GEMINI.md"]) == [
        str(home / ".gemini" / "ZED.md"),
        str(home / ".gemini" / "GEMINI.md"),
    ]


def test_private_memory_folder(tmp_path: Path, home: Path) -> None:
    session = tmp_path / "My Project"
    session.mkdir()
    assert gemini.private_memory_dir(str(session)) == str(home / ".gemini" / "tmp" / "my-project" / "memory")
    write_tree(home, {".gemini/tmp/my-project/.project_root": "/somewhere/else\n"})  # taken by another
    assert gemini.private_memory_dir(str(session)).endswith("/tmp/my-project-1/memory")
    write_tree(home, {".gemini/history/old/.project_root": f"{session}\n"})
    assert gemini.private_memory_dir(str(session)).endswith("/tmp/old/memory")
    write_tree(home, {".gemini/projects.json": json.dumps({"projects": {str(session): "mine"}})})
    assert gemini.private_memory_dir(str(session)).endswith("/tmp/mine/memory")
    write_tree(home, {".gemini/tmp/mine/memory/GEMINI.md": "legacy"})
    assert gemini.private_memory_file(str(session), ["GEMINI.md"]).endswith("/mine/memory/GEMINI.md")
    write_tree(home, {".gemini/tmp/mine/memory/MEMORY.md": "index"})
    assert gemini.private_memory_file(str(session), ["GEMINI.md"]).endswith("/mine/memory/MEMORY.md")


def test_scans_are_linear_on_a_megabyte() -> None:
    """The client's expression backtracks on these (quadratic: hours on a megabyte); ours does not."""
    for text in ("`" * (1 << 20), "`a" * (1 << 19), "``` `" * (1 << 18), "@a " * (1 << 18), "@" * (1 << 20)):
        started = time.perf_counter()
        gemini.code_regions(text)
        list(gemini.find_imports(text))
        assert time.perf_counter() - started < 15.0, repr(text[:8])


def test_an_import_tree_that_multiplies_is_cut(tmp_path: Path, home: Path) -> None:
    """Ten imports of the next file on each of five levels would be 10^5 copies: mnemolint stops."""
    files = {".git/HEAD": "", "GEMINI.md": "@l1.md " * 10}
    files.update({f"l{i}.md": (f"@l{i + 1}.md " * 10) + "x" * 1000 for i in range(1, 6)})
    root = write_tree(tmp_path / "p", files)
    started = time.perf_counter()
    result = expanded(root / "GEMINI.md")
    assert time.perf_counter() - started < 10.0
    assert not result.complete and len(result.text) < 4 * gemini.MAX_EXPANDED_CHARS
